// networking.istio.io WorkloadEntry and WorkloadGroup (workload_entry.proto, workload_group.proto).
import { describe, int, list, map, message, string, strings } from '../../../shape.ts';

export const WorkloadEntrySpec = message(
  {
    address: describe(
      describe(string, {
        maxLength: 256,
        rules: [
          {
            rule: 'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true',
            message: 'UDS must be an absolute path or abstract socket',
          },
          { rule: 'self.startsWith("unix://") ? !self.endsWith("/") : true', message: 'UDS may not be a dir' },
        ],
      }),
      { help: 'IP, DNS name or unix:// socket of the workload.' },
    ),
    labels: describe(describe(strings, { maxProperties: 256 }), { help: 'Labels of the workload, as selectors see them.' }),
    locality: describe(string, { maxLength: 2048 }),
    network: describe(describe(string, { maxLength: 2048 }), { help: 'Network the workload is in (multi-network meshes).' }),
    ports: describe(
      describe(
        map(describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] })),
        {
          maxProperties: 128,
          rules: [{ rule: 'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))', message: 'port name must be valid' }],
        },
      ),
      { help: "Port names mapped to the workload's port numbers." },
    ),
    serviceAccount: describe(describe(string, { maxLength: 253 }), { help: 'Service account the workload runs as.' }),
    weight: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Load-balancing weight of the workload.' }),
  },
  {
    proto: true,
    rules: [
      { rule: 'has(self.address) || has(self.network)', message: 'Address is required' },
      { rule: '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true', message: 'UDS may not include ports' },
    ],
  },
);

export const WorkloadGroupObjectMeta = message(
  {
    annotations: describe(strings, { maxProperties: 256 }),
    labels: describe(strings, { maxProperties: 256 }),
  },
  { proto: true },
);

export const ExecHealthCheckConfig = message(
  {
    command: list(describe(string, { minLength: 1 })),
  },
  { proto: true, required: ['command'] },
);

export const GrpcHealthCheckConfig = message(
  {
    port: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
    service: string,
  },
  { proto: true },
);

export const HTTPHeader = message(
  {
    name: describe(string, { pattern: '^[-_A-Za-z0-9]+$' }),
    value: string,
  },
  { proto: true },
);

export const HTTPHealthCheckConfig = message(
  {
    host: string,
    httpHeaders: list(HTTPHeader),
    path: string,
    port: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
    scheme: describe(string, { rules: [{ rule: 'self in ["", "HTTP", "HTTPS"]', message: 'scheme must be one of [HTTP, HTTPS]' }] }),
  },
  { proto: true, required: ['port'] },
);

export const TCPHealthCheckConfig = message(
  {
    host: string,
    port: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
  },
  { proto: true, required: ['port'] },
);

export const ReadinessProbe = message(
  {
    exec: ExecHealthCheckConfig,
    failureThreshold: describe(int, { minimum: 0 }),
    grpc: GrpcHealthCheckConfig,
    httpGet: HTTPHealthCheckConfig,
    initialDelaySeconds: describe(int, { minimum: 0 }),
    periodSeconds: describe(int, { minimum: 0 }),
    successThreshold: describe(int, { minimum: 0 }),
    tcpSocket: TCPHealthCheckConfig,
    timeoutSeconds: describe(int, { minimum: 0 }),
  },
  { proto: true, oneOf: [['httpGet', 'tcpSocket', 'exec', 'grpc']] },
);

export const WorkloadEntryTemplate = message(
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
    rules: [{ rule: '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true', message: 'UDS may not include ports' }],
  },
);

export const WorkloadGroupSpec = message(
  {
    metadata: WorkloadGroupObjectMeta,
    probe: describe(ReadinessProbe, { help: 'Readiness probe the proxy runs against the workload.' }),
    template: describe(WorkloadEntryTemplate, { help: 'The WorkloadEntry created for each workload that joins.' }),
  },
  { proto: true, required: ['template'] },
);
