// The `kiali` suite: every case of kiali/cases.json (YAML inputs and the findings Kiali's own
// checker tests assert) run through the Kiali pack's checker of the same name. How a case
// compares is the corpus README's "How to compare": findings filtered to `codes_in_scope`,
// then `exact` (multiset), `contains` or `nonempty`; an expected `severity`/`path` of null and
// `code_asserted: false` are not compared; `assert_no_findings`, `absent_from_results`,
// `expect_valid`, `forbidden_codes` and `references` (as sets) are checked too.
// A case whose checker the pack does not have yet is `notImplemented`: listed, not a failure.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView } from '../../src/core/config/configView.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { isObj, stringMap } from '../../src/core/document/read.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import {
  KialiContext,
  kialiChecker,
  type KialiContextOverrides,
  type KialiNamespaceOverride,
  type KialiWorkloadFlags,
  type KialiValidation,
  type KialiCheck,
} from '../../src/core/analysis/packs/kiali/index.ts';
import type { CaseResult } from './types.ts';
import { casesIn } from './parts.ts';

interface ObjectRef {
  group?: string;
  kind: string;
  namespace: string;
  name: string;
}

interface ExpectedCheck {
  code: string;
  severity: string | null;
  path: string | null;
  code_asserted?: boolean;
}

interface ObjectExpectation {
  object: ObjectRef;
  expected: ExpectedCheck[];
  expect_valid: boolean | null;
  absent_from_results?: boolean;
}

export interface KialiCase {
  id: string;
  checker: string;
  object: ObjectRef;
  expected: ExpectedCheck[];
  expect_valid: boolean | null;
  assert_no_findings: boolean;
  match: 'exact' | 'contains' | 'nonempty';
  object_absent_from_results?: boolean;
  other_objects?: ObjectExpectation[];
  forbidden_codes?: string[];
  /** Object → the objects its validation references (`name` or `namespace/name`), as the test asserts. */
  references?: Record<string, string[]>;
  codes_in_scope: string[];
  context: Record<string, unknown>;
  files: Record<string, string>;
}

export const KIALI_CASES = (root: string) => join(root, 'kiali', 'cases.json');

export function kialiCases(root: string): KialiCase[] {
  const file = KIALI_CASES(root);
  return existsSync(file) ? (casesIn(file) as KialiCase[]) : [];
}

/**
 * The case's context as overrides. What Kiali's tests leave at Go's zero value is set as they
 * do: no ALLOW_ANY, auto-mTLS off (the README: Kiali's tests default it to false), no control
 * plane. Without `namespaces`, the known namespaces are the Namespace objects of the files and
 * those `namespaceInfo` describes. `kialiWorkload` gives the flags of the case's workload.
 */
export function overridesOf(c: KialiCase, namespaceObjects: readonly string[]): KialiContextOverrides {
  const ctx = c.context;
  const kialiConfig = (ctx.kialiConfig ?? {}) as Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const namespaceInfo = namespaceInfoOf(ctx.namespaceInfo);
  return {
    namespaces:
      'namespaces' in ctx
        ? ctx.namespaces === null
          ? null
          : strings(ctx.namespaces)
        : [...new Set([...namespaceObjects, ...Object.keys(namespaceInfo ?? {})])],
    ...(namespaceInfo ? { namespaceInfo } : {}),
    ...(isObj(ctx.kialiWorkload) ? { workloads: { [`${c.object.namespace}/${c.object.name}`]: workloadFlagsOf(ctx.kialiWorkload) } } : {}),
    identityDomain: typeof ctx.identityDomain === 'string' ? ctx.identityDomain : 'svc.cluster.local',
    policyAllowAny: ctx.policyAllowAny === true,
    enableAutoMtls: ctx.enableAutoMtls === true,
    rootNamespace: typeof ctx.rootNamespace === 'string' ? ctx.rootNamespace : 'istio-system',
    cluster: typeof ctx.cluster === 'string' ? ctx.cluster : 'Kubernetes',
    controlPlaneNamespaces: strings(ctx.controlPlaneNamespaces),
    gatewayToNamespace: ctx.gatewayToNamespace === true,
    ...(isObj(ctx.rootNamespaces) ? { rootNamespaces: stringMap(ctx.rootNamespaces) } : {}),
    ...(isObj(ctx.serviceAccounts)
      ? { serviceAccounts: Object.fromEntries(Object.entries(ctx.serviceAccounts).map(([cluster, sas]) => [cluster, strings(sas)])) }
      : {}),
    ...(Array.isArray(kialiConfig['external_services.istio.gateway_api_classes'])
      ? {
          gatewayApiClasses: (kialiConfig['external_services.istio.gateway_api_classes'] as unknown[]).map((c) => (isObj(c) ? String(c.class_name ?? '') : '')),
        }
      : {}),
    ...(Array.isArray(ctx.knownTrustDomains) ? { knownTrustDomains: strings(ctx.knownTrustDomains) } : {}),
    skipWildcardGatewayHosts: kialiConfig['kiali_feature_flags.validations.skip_wildcard_gateway_hosts'] === true,
  };
}

/**
 * `context.namespaceInfo` (one Namespace model, or a list of them) as overrides: the labels
 * when given (null is the Go test's nil map, i.e. the Namespace object's), IsAmbient as the Go
 * test set it (unset is Go's false), IsControlPlane when given (else `controlPlaneNamespaces`).
 */
function namespaceInfoOf(v: unknown): Record<string, KialiNamespaceOverride> | undefined {
  const list = Array.isArray(v) ? v : isObj(v) ? [v] : [];
  if (list.length === 0) return undefined;
  const out: Record<string, KialiNamespaceOverride> = {};
  for (const ns of list) {
    if (!isObj(ns) || typeof ns.name !== 'string') continue;
    out[ns.name] = {
      isAmbient: ns.isAmbient === true,
      ...(typeof ns.isControlPlane === 'boolean' ? { isControlPlane: ns.isControlPlane } : {}),
      ...(isObj(ns.labels) ? { labels: stringMap(ns.labels) } : {}),
    };
  }
  return out;
}

/** `context.kialiWorkload`: the flags the Go test set on the workload, the others at Go's zero value. */
function workloadFlagsOf(v: Record<string, unknown>): KialiWorkloadFlags {
  return {
    isAmbient: v.isAmbient === true,
    istioSidecar: v.istioSidecar === true,
    waypointWorkloads: Array.isArray(v.waypointWorkloads)
      ? v.waypointWorkloads.map((w) => (isObj(w) ? `${String(w.namespace ?? '')}/${String(w.name ?? '')}` : String(w)))
      : [],
  };
}

function show(c: { code: string; severity: string | null; path: string | null }): string {
  return `${c.code} ${c.severity ?? '*'} ${c.path ?? '*'}`;
}

function matches(e: ExpectedCheck, f: KialiCheck): boolean {
  return (e.code_asserted === false || e.code === f.code) && (e.severity === null || e.severity === f.severity) && (e.path === null || e.path === f.path);
}

/** Compares one object's validation with what the test asserts; returns the differences. */
function compareObject(
  c: KialiCase,
  exp: ObjectExpectation & { assertNone: boolean },
  got: KialiValidation | undefined,
  missing: string[],
  extra: string[],
): void {
  const where = `${exp.object.kind} ${exp.object.namespace}/${exp.object.name}`;
  if (exp.absent_from_results) {
    if (got) extra.push(`${where}: in the results (the test asserts it is absent): ${got.checks.map(show).join(', ') || 'no checks'}`);
    return;
  }
  const scope = new Set(c.codes_in_scope);
  const findings = (got?.checks ?? []).filter((f) => scope.has(f.code));
  const left = [...findings];
  for (const e of exp.expected) {
    const i = left.findIndex((f) => matches(e, f));
    if (i >= 0) left.splice(i, 1);
    else if (c.match !== 'nonempty') missing.push(`${where}: ${show(e)}`);
  }
  if (c.match === 'nonempty' && exp.expected.length > 0 && findings.length === 0)
    missing.push(`${where}: at least one of ${exp.expected.map(show).join(', ')}`);
  if (c.match === 'exact' || exp.assertNone) for (const f of left) extra.push(`${where}: ${show(f)}`);
  const valid = got?.valid ?? true;
  if (exp.expect_valid !== null && exp.expect_valid !== valid)
    (valid ? extra : missing).push(`${where}: valid=${valid}, the test asserts valid=${exp.expect_valid}`);
  for (const code of c.forbidden_codes ?? []) for (const f of got?.checks ?? []) if (f.code === code) extra.push(`${where}: forbidden ${show(f)}`);
}

/** Runs one case; `notImplemented` when the pack has no checker of that name. */
export function runKialiCase(c: KialiCase): CaseResult {
  const base = { suite: 'kiali', id: `kiali/${c.id}`, analyzer: c.checker };
  const checker = kialiChecker(c.checker);
  if (!checker) return { ...base, passed: false, notImplemented: true, missing: [], extra: [], error: 'checker not implemented' };
  try {
    const model = new WorkspaceModel(kindProblems);
    model.update(
      Object.entries(c.files).map(([path, text]) => ({ path, text })),
      [],
    );
    const store = new ResourceStore(model.resources(), {
      mode: 'harness',
      defaultNamespace: '',
      includePlaceholders: false,
      deriveWorkloads: false,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
    });
    const view = configView(store);
    const namespaceObjects = view.list(KINDS.Namespace).map((n) => n.name);
    const validations = checker.run(new KialiContext(view, overridesOf(c, namespaceObjects)));
    // A group in parentheses names a Kiali pseudo-object (`(kiali workload)`): matched by kind alone.
    const find = (o: ObjectRef) =>
      validations.find(
        (v) =>
          v.object.kind === o.kind &&
          (o.group === undefined || o.group.startsWith('(') || v.object.group === o.group) &&
          v.object.namespace === o.namespace &&
          v.object.name === o.name,
      );
    const missing: string[] = [];
    const extra: string[] = [];
    compareObject(
      c,
      {
        object: c.object,
        expected: c.expected,
        expect_valid: c.expect_valid,
        absent_from_results: c.object_absent_from_results,
        assertNone: c.assert_no_findings,
      },
      find(c.object),
      missing,
      extra,
    );
    for (const o of c.other_objects ?? []) compareObject(c, { ...o, assertNone: false }, find(o.object), missing, extra);
    // References: keys and values are names, or namespace/name when the test names namespaces.
    for (const [key, expectedRefs] of Object.entries(c.references ?? {})) {
      const qualified = key.includes('/');
      const v = validations.find((x) => x.object.kind === c.object.kind && (qualified ? `${x.object.namespace}/${x.object.name}` : x.object.name) === key);
      const got = [...new Set((v?.references ?? []).map((r) => (qualified ? r : r.slice(r.indexOf('/') + 1))))].sort();
      const want = [...new Set(expectedRefs)].sort();
      if (JSON.stringify(got) !== JSON.stringify(want)) missing.push(`${c.object.kind} ${key}: references ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
    return { ...base, passed: missing.length === 0 && extra.length === 0, missing, extra };
  } catch (e) {
    return { ...base, passed: false, missing: [], extra: [], error: (e as Error).stack ?? String(e) };
  }
}

export function runKiali(root: string): CaseResult[] {
  return kialiCases(root).map(runKialiCase);
}
