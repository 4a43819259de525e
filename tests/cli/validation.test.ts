import { describe, expect, it } from 'vitest';
import { cli } from './helpers.ts';
import { ALL_ANALYZERS } from '../../src/core/analysis/analyzers/index.ts';

// istioctl's own file test (istioctl/pkg/analyze/testdata/analyze-file/specific-analyzer.yaml):
// two Gateways whose servers have no port fail analysis with every analyzer and with
// --analyzer schema.ValidationAnalyzer.Gateway, and pass with gateway.ConflictingGatewayAnalyzer.
describe('schema validation from the CLI (istioctl analyze-file test data)', () => {
  const lines = [
    'Error [IST0106] (Gateway default/back gateways-without-ports.yaml:14) Schema validation error: port is required\n',
    'Error [IST0106] (Gateway default/front gateways-without-ports.yaml:1) Schema validation error: port is required\n',
  ];

  it('fails with all analyzers: IST0106 on each Gateway, at the resource line', async () => {
    const r = await cli(['analyze', 'gateways-without-ports.yaml']);
    expect(r.code).toBe(79);
    expect(r.stdout).toBe(lines.join(''));
  });

  it('fails with --analyzer schema.ValidationAnalyzer.Gateway', async () => {
    const r = await cli(['analyze', '--analyzer', 'schema.ValidationAnalyzer.Gateway', 'gateways-without-ports.yaml']);
    expect(r.code).toBe(79);
    expect(r.stdout).toBe(lines.join(''));
  });

  it('passes with gateway.ConflictingGatewayAnalyzer', async () => {
    const r = await cli(['analyze', '--analyzer', 'gateway.ConflictingGatewayAnalyzer', 'gateways-without-ports.yaml']);
    expect(r.code).toBe(0);
  });

  it('runs a validation analyzer for every Istio kind, after the others, in Istio order, and lists them', async () => {
    const names = ALL_ANALYZERS.map((a) => a.metadata.name).filter((n) => n.startsWith('schema.'));
    expect(ALL_ANALYZERS.slice(-names.length).map((a) => a.metadata.name)).toEqual(names);
    const listed = (await cli(['analyze', '-L'])).stdout;
    for (const n of names) expect(listed).toContain(`* ${n}:\n    Runs schema validation as an analyzer on '${n.split('.')[2]}' resources\n`);
    expect(names.map((n) => n.split('.')[2])).toEqual([
      'AuthorizationPolicy',
      'DestinationRule',
      'EnvoyFilter',
      'Gateway',
      'PeerAuthentication',
      'ProxyConfig',
      'RequestAuthentication',
      'ServiceEntry',
      'Sidecar',
      'Telemetry',
      'TrafficExtension',
      'VirtualService',
      'WasmPlugin',
      'WorkloadEntry',
      'WorkloadGroup',
      'MeshNetworks',
      'MeshConfig',
    ]);
  });
});
