// networking.istio.io EnvoyFilter: match conditions and patches (envoy_filter.proto).
import { describe, enumOf, int, list, map, message, raw, string, strings } from '../../../shape.ts';
import { PolicyTargetReference } from '../common.ts';

export const ClusterMatch = message(
  {
    name: string,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295 }),
    service: string,
    subset: string,
  },
  { proto: true },
);

export const SubFilterMatch = message(
  {
    name: string,
  },
  { proto: true },
);

export const FilterMatch = message(
  {
    name: string,
    subFilter: SubFilterMatch,
  },
  { proto: true },
);

export const FilterChainMatch = message(
  {
    applicationProtocols: string,
    destinationPort: describe(int, { minimum: 0, maximum: 4294967295 }),
    filter: FilterMatch,
    name: string,
    sni: string,
    transportProtocol: string,
    transportSocket: string,
  },
  { proto: true },
);

export const ListenerMatch = message(
  {
    filterChain: FilterChainMatch,
    listenerFilter: string,
    name: string,
    portName: string,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  { proto: true },
);

export const ProxyMatch = message(
  {
    metadata: strings,
    proxyVersion: string,
  },
  { proto: true },
);

export const RouteMatch = message(
  {
    action: enumOf(['ANY', 'ROUTE', 'REDIRECT', 'DIRECT_RESPONSE']),
    name: string,
  },
  { proto: true },
);

export const VirtualHostMatch = message(
  {
    domainName: string,
    name: string,
    route: RouteMatch,
  },
  { proto: true },
);

export const RouteConfigurationMatch = message(
  {
    gateway: string,
    name: string,
    portName: string,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295 }),
    vhost: VirtualHostMatch,
  },
  { proto: true },
);

export const WaypointMatch = message(
  {
    filter: FilterMatch,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
    route: SubFilterMatch,
  },
  { proto: true },
);

export const EnvoyConfigObjectMatch = message(
  {
    cluster: ClusterMatch,
    context: describe(enumOf(['ANY', 'SIDECAR_INBOUND', 'SIDECAR_OUTBOUND', 'GATEWAY', 'WAYPOINT']), {
      help: 'Where: SIDECAR_INBOUND, SIDECAR_OUTBOUND, GATEWAY, WAYPOINT or ANY.',
    }),
    listener: ListenerMatch,
    proxy: ProxyMatch,
    routeConfiguration: RouteConfigurationMatch,
    waypoint: WaypointMatch,
  },
  {
    proto: true,
    rules: [
      {
        rule: 'has(self.context) ? ((self.context == "WAYPOINT") ? has(self.waypoint) : !has(self.waypoint)) : !has(self.waypoint)',
        message: 'only support waypointMatch when context is WAYPOINT',
      },
    ],
    oneOf: [['listener', 'routeConfiguration', 'cluster', 'waypoint']],
  },
);

export const Patch = message(
  {
    filterClass: enumOf(['UNSPECIFIED', 'AUTHN', 'AUTHZ', 'STATS']),
    operation: describe(enumOf(['INVALID', 'MERGE', 'ADD', 'REMOVE', 'INSERT_BEFORE', 'INSERT_AFTER', 'INSERT_FIRST', 'REPLACE', 'MERGE_AND_REPLACE_LIST']), {
      help: 'How to apply the value: MERGE, ADD, REMOVE, INSERT_BEFORE, INSERT_AFTER, INSERT_FIRST or REPLACE.',
    }),
    value: describe(raw, { help: "The Envoy configuration to merge or add (as Envoy's JSON/YAML)." }),
  },
  { proto: true },
);

export const EnvoyConfigObjectPatch = message(
  {
    applyTo: describe(
      enumOf([
        'INVALID',
        'LISTENER',
        'FILTER_CHAIN',
        'NETWORK_FILTER',
        'HTTP_FILTER',
        'ROUTE_CONFIGURATION',
        'VIRTUAL_HOST',
        'HTTP_ROUTE',
        'CLUSTER',
        'EXTENSION_CONFIG',
        'BOOTSTRAP',
        'LISTENER_FILTER',
      ]),
      { help: 'Which kind of Envoy object to patch (LISTENER, HTTP_FILTER, CLUSTER, …).' },
    ),
    match: describe(EnvoyConfigObjectMatch, { help: 'Which objects to patch: by context, proxy, listener, route or cluster.' }),
    patch: describe(Patch, { help: 'The operation (MERGE, ADD, REMOVE, INSERT_BEFORE, …) and value.' }),
  },
  { proto: true },
);

export const EnvoyFilterWorkloadSelector = message(
  {
    labels: describe(map(describe(string, { maxLength: 63, rules: [{ rule: '!self.contains("*")', message: 'wildcard is not supported in selector' }] })), {
      maxProperties: 256,
    }),
  },
  { proto: true },
);

export const EnvoyFilterSpec = message(
  {
    configPatches: describe(list(EnvoyConfigObjectPatch), { help: 'Patches to the generated Envoy configuration. Can break proxies: use with care.' }),
    priority: describe(int, { help: 'Order in which filters are applied; lower first.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
    workloadSelector: describe(EnvoyFilterWorkloadSelector, {
      help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.',
    }),
  },
  {
    proto: true,
    rules: [
      { rule: '(has(self.workloadSelector) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1', message: 'only one of targetRefs or workloadSelector can be set' },
    ],
  },
);
