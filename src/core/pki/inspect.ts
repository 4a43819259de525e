// One inspection: decoded inputs → every certificate, key, CRL and CSR with where it came
// from, the issuer relations (names and WebCrypto signatures), the scenarios Istio would
// see (plug-in CA, self-signed CA, gateway credential, workload files, trust bundles, dumps,
// remote secrets) with Istio's checks in Istio's order, the chains as Go builds them, the
// lints, and istioctl's tables. The result is plain data (report.ts).
//
// The entry point. The work is done by jobs over one shared context (inspection.ts):
// collect.ts, then scenarioDetection.ts (which runs the checklists of scenarios.ts, drawing
// chains with chains.ts), then reportBuild.ts.
import { collectInputs } from './collect.ts';
import { decodeInputs, type Decoded, type InputFile } from './input.ts';
import { Inspection, type InspectOptions } from './inspection.ts';
import type { CertsReport } from './report.ts';
import { buildReport } from './reportBuild.ts';
import { detectScenarios } from './scenarioDetection.ts';

export { humanSpan, KEY_REDACTED_IN_LINK, type CredentialUser, type GatewayServerContext, type InspectOptions } from './inspection.ts';
export { istioctlRow } from './reportBuild.ts';

/** Inspects decoded inputs. */
export async function inspectDecoded(decoded: Decoded, options: InspectOptions = {}): Promise<CertsReport> {
  const opts = {
    now: options.now ?? new Date(),
    trustDomain: options.trustDomain ?? 'cluster.local',
    aliases: options.aliases ?? [],
    profile: options.profile ?? 'default',
    credentialUsers: options.credentialUsers ?? [],
  };
  const run = new Inspection(decoded, opts);
  await collectInputs(run);
  if (options.scenarios !== false) await detectScenarios(run);
  return buildReport(run);
}

/** Decodes and inspects inputs (files, pastes). */
export async function inspect(inputs: readonly InputFile[], options: InspectOptions = {}): Promise<CertsReport> {
  return inspectDecoded(decodeInputs(inputs), options);
}
