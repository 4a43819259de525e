// networking.istio.io ServiceEntry: hosts, ports, endpoints (service_entry.proto).
import { describe, enumOf, int, list, map, message, string, strings } from '../../../shape.ts';
import { EnvoyFilterWorkloadSelector } from './envoyFilter.ts';

export const ServiceEntryEndpoint = message(
  {
    address: describe(string, {
      maxLength: 256,
      rules: [
        {
          rule: 'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true',
          message: 'UDS must be an absolute path or abstract socket',
        },
        { rule: 'self.startsWith("unix://") ? !self.endsWith("/") : true', message: 'UDS may not be a dir' },
      ],
    }),
    labels: describe(strings, { maxProperties: 256 }),
    locality: describe(string, { maxLength: 2048 }),
    network: describe(string, { maxLength: 2048 }),
    ports: describe(
      map(describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] })),
      {
        maxProperties: 128,
        rules: [{ rule: 'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))', message: 'port name must be valid' }],
      },
    ),
    serviceAccount: describe(string, { maxLength: 253 }),
    weight: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  {
    proto: true,
    rules: [
      { rule: 'has(self.address) || has(self.network)', message: 'Address is required' },
      { rule: '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true', message: 'UDS may not include ports' },
    ],
  },
);

export const ServicePort = message(
  {
    name: describe(describe(string, { maxLength: 256 }), { help: 'Name of the port.' }),
    number: describe(
      describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
      { help: 'Port number.' },
    ),
    protocol: describe(describe(string, { maxLength: 256 }), { help: 'Protocol: HTTP, HTTPS, GRPC, HTTP2, MONGO, TCP or TLS.' }),
    targetPort: describe(
      describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
      { help: 'Port on the endpoints that receives the traffic.' },
    ),
  },
  { proto: true, required: ['number', 'name'] },
);

export const ServiceEntrySpec = message(
  {
    addresses: describe(describe(list(describe(string, { maxLength: 64 })), { maxItems: 256 }), { help: 'Virtual IPs or CIDRs of the service.' }),
    endpoints: describe(describe(list(ServiceEntryEndpoint), { maxItems: 4096 }), { help: 'Endpoints of the service (for STATIC or DNS resolution).' }),
    exportTo: describe(list(string), { help: "Namespaces this config is visible to: '.' for its own namespace, '*' for all (the default)." }),
    hosts: describe(
      describe(list(describe(string, { rules: [{ rule: 'self != "*"', message: 'hostname cannot be wildcard' }] })), { minItems: 1, maxItems: 256 }),
      { help: 'Hosts of the external or mesh service this entry adds to the registry.' },
    ),
    location: describe(enumOf(['MESH_EXTERNAL', 'MESH_INTERNAL']), { help: 'MESH_EXTERNAL (outside the mesh) or MESH_INTERNAL.' }),
    ports: describe(
      describe(list(ServicePort), {
        maxItems: 256,
        listType: 'map',
        listMapKeys: ['name'],
        rules: [{ rule: 'self.all(l1, self.exists_one(l2, l1.number == l2.number))', message: 'port number cannot be duplicated' }],
      }),
      { help: 'Ports of the service.' },
    ),
    resolution: describe(enumOf(['NONE', 'STATIC', 'DNS', 'DNS_ROUND_ROBIN', 'DYNAMIC_DNS']), {
      help: 'How endpoints are found: NONE, STATIC, DNS or DNS_ROUND_ROBIN.',
    }),
    subjectAltNames: list(string),
    workloadSelector: describe(EnvoyFilterWorkloadSelector, {
      help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.',
    }),
  },
  {
    proto: true,
    rules: [
      { rule: '(has(self.workloadSelector) ? 1 : 0) + (has(self.endpoints) ? 1 : 0) <= 1', message: 'only one of WorkloadSelector or Endpoints can be set' },
      {
        rule: '!((has(self.addresses) ? self.addresses : []).exists(k, k.contains("/")) && !((has(self.resolution) ? self.resolution : "NONE") in ["STATIC", "NONE"]))',
        message: 'CIDR addresses are allowed only for NONE/STATIC resolution types',
      },
      { rule: '((has(self.resolution) ? self.resolution : "NONE") == "NONE") ? !has(self.endpoints) : true', message: 'NONE mode cannot set endpoints' },
      {
        rule: '((has(self.resolution) ? self.resolution : "") == "DNS_ROUND_ROBIN") ? ((has(self.endpoints) ? self.endpoints : []).size() <= 1) : true',
        message: 'DNS_ROUND_ROBIN mode cannot have multiple endpoints',
      },
    ],
    required: ['hosts'],
  },
);
