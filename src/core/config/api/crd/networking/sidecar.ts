// networking.istio.io Sidecar: ingress and egress listeners (sidecar.proto).
import { describe, enumOf, int, list, message, string } from '../../../shape.ts';
import { ConnectionPoolSettings } from './destinationRule.ts';
import { EnvoyFilterWorkloadSelector } from './envoyFilter.ts';
import { ServerTLSSettings } from './gateway.ts';
import { Destination } from './virtualService.ts';

export const SidecarPort = message(
  {
    name: string,
    number: describe(int, { minimum: 0, maximum: 4294967295 }),
    protocol: string,
    targetPort: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  { proto: true },
);

export const IstioEgressListener = message(
  {
    bind: string,
    captureMode: enumOf(['DEFAULT', 'IPTABLES', 'NONE']),
    hosts: describe(list(string), { help: "Services reachable from the workloads, as namespace/host ('./*' for the own namespace)." }),
    port: SidecarPort,
  },
  { proto: true, required: ['hosts'] },
);

export const IstioIngressListener = message(
  {
    bind: string,
    captureMode: enumOf(['DEFAULT', 'IPTABLES', 'NONE']),
    connectionPool: ConnectionPoolSettings,
    defaultEndpoint: string,
    port: SidecarPort,
    tls: ServerTLSSettings,
  },
  { proto: true, required: ['port'] },
);

export const OutboundTrafficPolicy = message(
  {
    egressProxy: Destination,
    mode: enumOf(['REGISTRY_ONLY', 'ALLOW_ANY']),
  },
  { proto: true },
);

export const SidecarSpec = message(
  {
    egress: describe(list(IstioEgressListener), { help: 'Which services the workloads can reach (everything else is not configured in their proxies).' }),
    inboundConnectionPool: ConnectionPoolSettings,
    ingress: describe(list(IstioIngressListener), { help: 'Ports on which the workloads accept traffic.' }),
    outboundTrafficPolicy: describe(OutboundTrafficPolicy, { help: 'What to do with traffic to unknown destinations: ALLOW_ANY or REGISTRY_ONLY.' }),
    workloadSelector: describe(EnvoyFilterWorkloadSelector, {
      help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.',
    }),
  },
  { proto: true },
);
