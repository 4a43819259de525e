// Inputs for the scenario tests (tests/pki/scenarioSteps.test.ts, tests/pki/scenarioDetection.test.ts):
// Secrets and ConfigMaps as YAML, the inspection of them, and the lookups those tests share.
// Certificates come from pkiBuilder.ts; PEM and keys from istioFixtures.ts.
import { expect } from 'vitest';
import { inspect, type CredentialUser } from '../../src/core/pki/inspect.ts';
import type { CertsReport, ScenarioView } from '../../src/core/pki/report.ts';
import type { CheckStep } from '../../src/core/pki/istio.ts';
import { NOW, intermediate, root, type Issued } from './pkiBuilder.ts';
import { keyPem } from './istioFixtures.ts';

export const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** The redaction marker a share link writes in place of a value (document/redactionMarkers.ts). */
export const REDACTED = 'REDACTED';

export interface ObjectExtra {
  namespace?: string;
  type?: string;
  labels?: Record<string, string>;
}

/** A Secret with `data` (base64 of the exact texts given). */
export function secret(name: string, data: Record<string, string>, extra: ObjectExtra = {}): string {
  const labels = extra.labels
    ? `  labels:\n${Object.entries(extra.labels)
        .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
        .join('\n')}\n`
    : '';
  const entries = Object.entries(data);
  const body = entries.length === 0 ? 'data: {}\n' : `data:\n${entries.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(b64(v))}`).join('\n')}\n`;
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: ${extra.namespace ?? 'istio-system'}\n${labels}${extra.type ? `type: ${extra.type}\n` : ''}${body}`;
}

/** A ConfigMap with `data` (the texts as they are). */
export function configMap(name: string, data: Record<string, string>): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: istio-system\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;
}

export type InspectOptions = Parameters<typeof inspect>[1];

/** Inspects one YAML input (`in.yaml`) at NOW. */
export function yaml(text: string, options: InspectOptions = {}): Promise<CertsReport> {
  return inspect([{ name: 'in.yaml', text }], { now: NOW, ...options });
}

/** Inspects several named files at NOW. */
export function files(list: Record<string, string>, options: InspectOptions = {}): Promise<CertsReport> {
  return inspect(
    Object.entries(list).map(([name, text]) => ({ name, text })),
    { now: NOW, ...options },
  );
}

export const scenarios = (r: CertsReport, kind: ScenarioView['kind']): ScenarioView[] => r.scenarios.filter((s) => s.kind === kind);

/** The one scenario of a kind (the test fails when there are none or several). */
export function only(r: CertsReport, kind: ScenarioView['kind']): ScenarioView {
  const list = scenarios(r, kind);
  expect(list.map((s) => s.kind)).toEqual([kind]);
  return list[0]!;
}

/** The step named `name` (the test fails when it is missing). */
export function step(s: ScenarioView, name: string): CheckStep {
  const found = s.steps.find((x) => x.name === name);
  expect(found, `step "${name}" of ${s.title}`).toBeDefined();
  return found!;
}

export const names = (s: ScenarioView): string[] => s.steps.map((x) => x.name);
export const states = (s: ScenarioView): [string, string][] => s.steps.map((x) => [x.name, x.status]);
export const findingIds = (r: CertsReport): string[] => r.findings.map((f) => f.id);
export const finding = (r: CertsReport, id: string) => r.findings.find((f) => f.id === id);

/** The roles the report gives a certificate. */
export function roles(r: CertsReport, c: Issued): string[] {
  const view = r.certificates.find((x) => x.id === c.cert.facts.sha256FingerprintHex);
  expect(view, `certificate ${c.cert.facts.subject} in the report`).toBeDefined();
  return [...view!.roles].sort();
}

/** The chains a scenario drew. */
export const chainsOf = (r: CertsReport, s: ScenarioView) => s.chains.map((id) => r.chains.find((c) => c.id === id)!);

/** A fingerprint, as chain paths and roots name certificates. */
export const fp = (c: Issued): string => c.cert.facts.sha256FingerprintHex;

/** A Gateway in `default` whose servers name credentials in istio-system. */
export function gatewayUser(servers: Array<{ hosts: string[]; credentialName: string }>, name = 'gw', secretNamespace = 'istio-system'): CredentialUser {
  return {
    kind: 'Gateway',
    namespace: 'default',
    name,
    secretNamespace,
    servers: servers.map((s, index) => ({ index, mode: 'SIMPLE', ...s })),
  };
}

/** A PEM file's bytes as text. */
export const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** A plug-in CA: a root, the signing CA it issued, and the signing CA's key as PEM. */
export async function pluginCa() {
  const r0 = await root({ subject: 'CN=Mesh Root' });
  const signing = await intermediate(r0, 'CN=Signing CA');
  return { r0, signing, key: await keyPem(signing.keys) };
}
