// serviceentry.Analyzer: a ServiceEntry without addresses needs them for every TCP (or
// protocol-less) port (IST0134), unless the mesh auto-allocates addresses (DNS capture
// with auto-allocation in the default proxy metadata) or the status already holds
// allocated addresses.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { serviceEntry, serviceEntryStatus } from '../../../config/api/networking.ts';
import { meshAutoAllocatesAddresses } from '../../../config/dnsProxy.ts';

function hasAllocatedAddresses(se: Resource): boolean {
  return serviceEntryStatus(se).addresses.length > 0;
}

export const serviceEntryProtocolAddressesAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'serviceentry.Analyzer',
    description: 'Checks that ServiceEntries with TCP or unspecified-protocol ports have addresses',
    inputs: [KINDS.ServiceEntry, KINDS.MeshConfig],
  },
  {
    kind: KINDS.ServiceEntry,
    check(ctx, se) {
      const spec = serviceEntry(se);
      // Only a missing (or empty) addresses list counts as "no addresses".
      if (spec.addresses.length > 0 || hasAllocatedAddresses(se) || meshAutoAllocatesAddresses(ctx.meshConfig)) return;
      spec.ports.forEach((port, i) => {
        const protocol = port.protocol;
        if (protocol !== '' && protocol.toUpperCase() !== 'TCP') return;
        // Istio points at the port's name; the squiggle goes to the protocol that needs
        // addresses (or the port's number when it declares no protocol).
        ctx.report(MESSAGES.ServiceEntryAddressesRequired.at(se), {
          fieldPath: `spec.ports[${i}].name`,
          highlightPath: `spec.ports[${i}].${protocol !== '' ? 'protocol' : 'number'}`,
        });
      });
    },
  },
);
