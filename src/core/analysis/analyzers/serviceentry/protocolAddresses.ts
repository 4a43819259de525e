// serviceentry.Analyzer: a ServiceEntry without addresses needs them for every TCP (or
// protocol-less) port (IST0134), unless the mesh auto-allocates addresses (DNS capture
// with auto-allocation in the default proxy metadata) or the status already holds
// allocated addresses.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { arr, isObj, specOf, str } from '../../../model/read.ts';

/** True when the default proxy metadata turns on DNS capture with address auto-allocation. */
export function meshAutoAllocatesAddresses(ctx: AnalysisContext): boolean {
  const dc = ctx.meshConfig.defaultConfig;
  const md = isObj(dc) && isObj(dc.proxyMetadata) ? dc.proxyMetadata : {};
  if (str(md.ISTIO_META_DNS_CAPTURE) !== 'true') return false;
  return str(md.ISTIO_META_DNS_AUTO_ALLOCATE) === 'true' || str(md.PILOT_ENABLE_IP_AUTOALLOCATE) === 'true';
}

function hasAllocatedAddresses(se: Resource): boolean {
  const status = se.body.status;
  return isObj(status) && arr(status.addresses).length > 0;
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
      const spec = specOf(se);
      // Only a missing (or empty) addresses list counts as "no addresses".
      if (arr(spec.addresses).length > 0 || hasAllocatedAddresses(se) || meshAutoAllocatesAddresses(ctx)) return;
      arr(spec.ports).forEach((port, i) => {
        const protocol = isObj(port) ? str(port.protocol) : '';
        if (protocol !== '' && protocol.toUpperCase() !== 'TCP') return;
        // Istio points at the port's name; the squiggle goes to the protocol that needs
        // addresses (or the port's number when it declares no protocol).
        ctx.report(MESSAGES.ServiceEntryAddressesRequired.at(se), { fieldPath: `spec.ports[${i}].name`, highlightPath: `spec.ports[${i}].${protocol !== '' ? 'protocol' : 'number'}` });
      });
    },
  },
);
