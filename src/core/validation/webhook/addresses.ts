// Istio's address checks (pkg/config/validation/agent), on Go's net/netip parsing.
import { isValidIP, parsePrefixError } from '../../go/netip.ts';

/** agent.ValidateIPAddress */
export function validateIPAddress(addr: string): string | undefined {
  return isValidIP(addr) ? undefined : `${addr} is not a valid IP`;
}

/** agent.ValidateIPSubnet: CIDR notation or a plain address. */
export function validateIPSubnet(subnet: string): string | undefined {
  if (subnet.split('/').length - 1 === 1) {
    return parsePrefixError(subnet) === undefined ? undefined : `${subnet} is not a valid CIDR block`;
  }
  return validateIPAddress(subnet);
}
