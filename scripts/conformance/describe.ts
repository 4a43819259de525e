// The describe suite: Istio's istioctl x describe and x authz check tests, transcribed into
// conformance/describe/*.yaml (one document per case; the files' comments say how). Each case
// runs our CLI command (over a mesh loaded from its objects, with its canned config dumps) or
// the core function Istio's unit table tests, and compares what it prints.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsyaml from 'js-yaml';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import type { Resource } from '../../src/core/document/types.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';
import { configDumpFromValue } from '../../src/core/xds/configdump/dump.ts';
import { virtualServicePath } from '../../src/core/queries/describe/envoy.ts';
import { podRevision, protocolForPort } from '../../src/core/queries/describe/pod.ts';
import { authzCheck, authzCheckText } from '../../src/core/queries/describe/authzCheck.ts';
import type { DumpResult } from '../../src/core/queries/describe/ingress.ts';
import { runDescribeOnState } from '../../src/cli/describe.ts';
import { documentIds } from './manifest.ts';
import type { CaseResult } from './types.ts';

export const DESCRIBE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'conformance', 'describe');

export interface DescribeCase {
  id: string;
  file: string;
  case: string;
  type?: 'cli' | 'vsPath' | 'protocol' | 'revision' | 'authzCheck';
  args?: string[];
  namespace?: string;
  apiServerDefaults?: boolean;
  objects?: unknown[];
  configDumps?: Record<string, string | object>;
  expectedOutput?: string;
  expectedContains?: string;
  wantError?: boolean;
  dump?: string | object;
  service?: { name: string; namespace: string };
  port?: number | Record<string, unknown>;
  annotations?: Record<string, string>;
  expected?: string;
}

export function loadDescribeCases(dir = DESCRIBE_DIR): DescribeCase[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const out: DescribeCase[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.yaml'))
    .sort()) {
    const docs = jsyaml.loadAll(readFileSync(join(dir, f), 'utf8')).filter((d) => d !== null && typeof d === 'object') as Omit<DescribeCase, 'id' | 'file'>[];
    const ids = documentIds(
      `describe/${f}`,
      docs.map((d) => ({ content: d, name: String(d.case ?? '') })),
    );
    docs.forEach((d, i) => out.push({ ...d, file: f, id: ids[i] as string }));
  }
  return out;
}

function dumpOf(ref: string | object, dir: string): DumpResult {
  const value = typeof ref === 'string' ? (JSON.parse(readFileSync(join(dir, ref), 'utf8')) as unknown) : ref;
  const r = configDumpFromValue(value);
  return r.ok ? { ok: true, dump: r.dump } : { ok: false, error: r.error };
}

/** The mesh the case's fake clients hold: its objects, nothing assumed (no placeholder gateway, no derived pods). */
function caseView(objects: readonly unknown[]): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  const text = objects.map((o) => jsyaml.dump(o, { noRefs: true })).join('---\n');
  model.update(text ? [{ path: 'objects.yaml', text }] : [], []);
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: false,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

function runCli(c: DescribeCase, dir: string): { output: string; exit: number } {
  const view = caseView(c.objects ?? []);
  let output = '';
  const io = {
    stdout: (s: string) => {
      output += s;
    },
    stderr: (s: string) => {
      output += s;
    },
    stdin: async () => '',
    cwd: dir,
    isTTY: false,
    env: {},
  };
  const dumps = c.configDumps ?? {};
  const dumpFor = (pod: Resource): DumpResult => {
    const ref = dumps[pod.name];
    return ref === undefined ? { ok: false, error: `no config dump for pod ${pod.name}` } : dumpOf(ref, dir);
  };
  const args = [...(c.args ?? []), ...(c.namespace ? ['--namespace', c.namespace] : [])];
  const exit = runDescribeOnState(args, { view, document: () => undefined }, io, { dumpFor, apiServerDefaults: c.apiServerDefaults ?? true });
  return { output, exit };
}

/** What the case prints (or returns), and the problems found comparing it with the expectation. */
export function runDescribeCase(c: DescribeCase, dir = DESCRIBE_DIR): string[] {
  const problems: string[] = [];
  const expectText = (got: string) => {
    if (c.expectedOutput !== undefined && got !== c.expectedOutput) problems.push(`output differs:\n--- want\n${c.expectedOutput}--- got\n${got}`);
    if (c.expectedContains !== undefined && !got.includes(c.expectedContains)) problems.push(`output lacks ${JSON.stringify(c.expectedContains)}:\n${got}`);
  };
  switch (c.type ?? 'cli') {
    case 'cli': {
      const r = runCli(c, dir);
      expectText(r.output);
      if (c.wantError === true && r.exit === 0) problems.push('wanted an error, the command succeeded');
      if (c.wantError !== true && r.exit !== 0) problems.push(`unwanted error (exit ${r.exit})`);
      break;
    }
    case 'vsPath': {
      const d = dumpOf(c.dump ?? {}, dir);
      const got = d.ok ? virtualServicePath(d.dump, c.service?.name ?? '', c.service?.namespace ?? '', Number(c.port)) : `error: ${d.error}`;
      if (got !== c.expected) problems.push(`path ${JSON.stringify(got)}, want ${JSON.stringify(c.expected)}`);
      break;
    }
    case 'protocol': {
      const p = (c.port ?? {}) as Record<string, unknown>;
      const got = protocolForPort({
        name: String(p.name ?? ''),
        port: Number(p.port ?? 0),
        protocol: String(p.protocol ?? ''),
        ...(typeof p.appProtocol === 'string' ? { appProtocol: p.appProtocol } : {}),
        targetPort: undefined,
        index: 0,
      });
      if (got !== c.expected) problems.push(`protocol ${got}, want ${c.expected}`);
      break;
    }
    case 'revision': {
      const got = podRevision(c.annotations ?? {});
      if (got !== c.expected) problems.push(`revision ${JSON.stringify(got)}, want ${JSON.stringify(c.expected)}`);
      break;
    }
    case 'authzCheck': {
      const d = dumpOf(c.dump ?? {}, dir);
      expectText(d.ok ? authzCheckText(authzCheck(d.dump)) : `error: ${d.error}`);
      break;
    }
  }
  return problems;
}

/** Every case of the corpus, as conformance results. */
export function runDescribeSuite(dir = DESCRIBE_DIR): CaseResult[] {
  return loadDescribeCases(dir).map((c) => {
    let problems: string[];
    try {
      problems = runDescribeCase(c, dir);
    } catch (e) {
      problems = [`runner error: ${(e as Error).stack ?? String(e)}`];
    }
    return { suite: 'describe', id: c.id, analyzer: `describe/${c.type ?? 'cli'}`, passed: problems.length === 0, missing: problems, extra: [] };
  });
}
