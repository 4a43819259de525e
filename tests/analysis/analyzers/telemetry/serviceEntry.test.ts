import { describe, expect, it } from 'vitest';
import { serviceEntryProtocolAddressesAnalyzer } from '../../../../src/core/analysis/analyzers/serviceentry/protocolAddresses.ts';
import { conflictingServiceEntryProtocolAnalyzer } from '../../../../src/core/analysis/analyzers/serviceentry/conflictingProtocols.ts';
import { docs, lines, pairs } from '../helpers.ts';
import { lineOf, run } from './run.ts';

const se = (ns: string, name: string, body: string) => `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${body}`;

const port = (n: number, name: string, protocol?: string) =>
  `  - number: ${n}\n    name: ${name}\n${protocol !== undefined ? `    protocol: "${protocol}"\n` : ''}`;

describe('serviceentry.Analyzer', () => {
  const text = docs(
    se(
      'ext',
      'db',
      `  hosts: [db.example.org]\n  ports:\n${port(5432, 'pg', 'TCP')}${port(8080, 'web', 'HTTP')}${port(9000, 'raw')}${port(9001, 'lower', 'tcp')}`,
    ),
    se('ext', 'with-addr', `  hosts: [a.example.org]\n  addresses: [10.1.2.3]\n  ports:\n${port(5432, 'pg', 'TCP')}`),
    se('ext', 'http-only', `  hosts: [b.example.org]\n  ports:\n${port(443, 'https', 'HTTPS')}`),
    se(
      'ext',
      'allocated',
      `  hosts: [c.example.org]\n  ports:\n${port(22, 'ssh', 'TCP')}status:\n  addresses:\n  - host: c.example.org\n    value: 240.240.0.9\n`,
    ),
  );

  it('reports each TCP or protocol-less port of a ServiceEntry without addresses, on the port name', () => {
    const out = run(serviceEntryProtocolAddressesAnalyzer, { 'se.yaml': text });
    expect(pairs(out)).toEqual(['IST0134 ServiceEntry ext/db', 'IST0134 ServiceEntry ext/db', 'IST0134 ServiceEntry ext/db']);
    expect(lines(out)).toEqual([
      `Warning [IST0134] (ServiceEntry ext/db se.yaml:${lineOf(text, 'name: pg')}) ServiceEntry addresses are required for this protocol.`,
      `Warning [IST0134] (ServiceEntry ext/db se.yaml:${lineOf(text, 'name: raw')}) ServiceEntry addresses are required for this protocol.`,
      `Warning [IST0134] (ServiceEntry ext/db se.yaml:${lineOf(text, 'name: lower')}) ServiceEntry addresses are required for this protocol.`,
    ]);
    expect(out.map((d) => d.fieldPath)).toEqual(['spec.ports[0].name', 'spec.ports[2].name', 'spec.ports[3].name']);
  });

  it('is silent when the mesh captures DNS and auto-allocates addresses', () => {
    for (const flag of ['ISTIO_META_DNS_AUTO_ALLOCATE', 'PILOT_ENABLE_IP_AUTOALLOCATE']) {
      const out = run(
        serviceEntryProtocolAddressesAnalyzer,
        { 'se.yaml': text },
        { defaultConfig: { proxyMetadata: { ISTIO_META_DNS_CAPTURE: 'true', [flag]: 'true' } } },
      );
      expect(pairs(out)).toEqual([]);
    }
  });

  it('still reports when auto-allocation is on but DNS capture is off', () => {
    const out = run(serviceEntryProtocolAddressesAnalyzer, { 'se.yaml': text }, { defaultConfig: { proxyMetadata: { ISTIO_META_DNS_AUTO_ALLOCATE: 'true' } } });
    expect(out).toHaveLength(3);
  });
});

describe('serviceentry.ConflictingServiceEntryProtocolAnalyzer', () => {
  it('reports each ServiceEntry sharing a host and port with a different protocol, on its name', () => {
    const text = docs(
      se('default', 'se-tls', `  hosts: [api.example.com]\n  ports:\n${port(8443, 'tls', 'TLS')}`),
      se('default', 'se-http', `  hosts: [api.example.com]\n  ports:\n${port(8443, 'http', 'http')}`),
      se('default', 'se-other-port', `  hosts: [api.example.com]\n  ports:\n${port(9443, 'tcp', 'TCP')}`),
    );
    const out = run(conflictingServiceEntryProtocolAnalyzer, { 'c.yaml': text });
    expect(pairs(out)).toEqual(['IST0177 ServiceEntry default/se-http', 'IST0177 ServiceEntry default/se-tls']);
    expect(lines(out)).toEqual([
      `Warning [IST0177] (ServiceEntry default/se-http c.yaml:${lineOf(text, 'name: se-http')}) Multiple ServiceEntries (default/se-http, default/se-tls) define the same host "api.example.com" and port 8443 with conflicting protocols (HTTP, TLS).`,
      `Warning [IST0177] (ServiceEntry default/se-tls c.yaml:${lineOf(text, 'name: se-tls')}) Multiple ServiceEntries (default/se-http, default/se-tls) define the same host "api.example.com" and port 8443 with conflicting protocols (HTTP, TLS).`,
    ]);
    expect(out[0]?.fieldPath).toBe('metadata.name');
  });

  it('compares entries per export scope, with exported-to-all entries joining every scope', () => {
    const out = run(conflictingServiceEntryProtocolAnalyzer, {
      's.yaml': docs(
        // Different namespaces, each kept local: never visible together.
        se('a', 'local-a', `  hosts: [x.example.com]\n  exportTo: ["."]\n  ports:\n${port(80, 'http', 'HTTP')}`),
        se('b', 'local-b', `  hosts: [x.example.com]\n  exportTo: ["."]\n  ports:\n${port(80, 'grpc', 'GRPC')}`),
        // Exported to all: conflicts with the one exported to namespace c.
        se('c', 'to-c', `  hosts: [y.example.com]\n  exportTo: [c]\n  ports:\n${port(80, 'http', 'HTTP')}`),
        se('d', 'public', `  hosts: [y.example.com]\n  ports:\n${port(80, 'tcp')}`),
        // Same protocol in different case: no conflict.
        se('e', 'p1', `  hosts: [z.example.com]\n  ports:\n${port(80, 'h', 'HTTP')}`),
        se('f', 'p2', `  hosts: [z.example.com]\n  ports:\n${port(80, 'h', 'Http')}`),
      ),
    });
    expect(pairs(out)).toEqual(['IST0177 ServiceEntry c/to-c', 'IST0177 ServiceEntry d/public']);
    expect(out[0]?.message).toBe(
      'Multiple ServiceEntries (c/to-c, d/public) define the same host "y.example.com" and port 80 with conflicting protocols (, HTTP).',
    );
  });
});
