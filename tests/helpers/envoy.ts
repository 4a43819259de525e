// Test helper for code that generates Envoy config: fails the test with every proto problem
// (JSON path, what is wrong) when a resource does not pass the strict Envoy v3 check.
//
//   import { expectValidEnvoy } from '../helpers/envoy.ts';
//   expectValidEnvoy(cluster, 'type.googleapis.com/envoy.config.cluster.v3.Cluster');
//   expectValidEnvoy(listener);            // carries its own "@type"
//   expectValidConfigDump(dump);           // a whole /config_dump document
//
// Deprecation warnings do not fail the test unless `warnings: 'fail'`.
import { assert } from 'vitest';
import { checkConfigDump, checkEnvoyResource, formatProblems, type CheckOptions, type ProtoProblem } from '../../src/core/xds/proto/index.ts';

export interface ExpectValidOptions extends CheckOptions {
  warnings?: 'ignore' | 'fail';
}

function assertNoProblems(problems: ProtoProblem[], what: string, options: ExpectValidOptions): void {
  const failing = options.warnings === 'fail' ? problems : problems.filter((p) => p.severity === 'error');
  if (failing.length > 0) assert.fail(`${what} does not pass the strict Envoy proto check:\n${formatProblems(failing)}`);
}

export function expectValidEnvoy(resource: unknown, typeUrl?: string, options: ExpectValidOptions = {}): void {
  const type = typeUrl ?? (resource as { '@type'?: unknown } | null)?.['@type'];
  assertNoProblems(checkEnvoyResource(resource, typeUrl, options), `resource ${typeof type === 'string' ? type : ''}`.trim(), options);
}

export function expectValidConfigDump(dump: unknown, options: ExpectValidOptions = {}): void {
  assertNoProblems(checkConfigDump(dump, options), 'config dump', options);
}
