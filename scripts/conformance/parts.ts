// The conformance suites other than the analyzer table, as parts: each part knows how many
// cases the corpus holds for it, and runs them once it is implemented. A part without `run`
// counts all its cases as failed, so every miss is listed rather than hidden.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import type { CaseResult } from './types.ts';
import { runIstioctlChecks } from './xdsIstioctl.ts';
import { runValidationSuite } from './validation.ts';
import { certCaseCount, runCerts } from './certs.ts';
import { run as runAmbientScenarios } from './ambient.ts';
import { runGatewayApi } from './xdsGatewayApi.ts';
import { runAuthz } from './xdsAuthz.ts';
import { runVhostDomains } from './xdsVhostDomains.ts';
import { runSimulation } from './xdsSimulation.ts';
import { runSidecarRoutes } from './xdsSidecarRoutes.ts';
import { kialiCases, runKiali } from './kiali.ts';

export type SuiteName = 'validation' | 'xds' | 'certs' | 'ambient' | 'kiali';

export interface SuitePart {
  suite: SuiteName;
  /** Short name of the part (`authz`, `istioctl`, …), for the report. */
  part: string;
  /** How the cases are counted, for the report. */
  note: string;
  /** Cases the corpus under `root` holds for this part (0 when its files are absent). */
  count(root: string): number;
  /** Runs every case; absent until the part is implemented. Ids are `<suite>/<part>/<case>`. */
  run?(root: string): CaseResult[];
}

/** The suites in the order they are reported. */
export const SUITES: readonly SuiteName[] = ['validation', 'xds', 'certs', 'ambient', 'kiali'];

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function filesIn(dir: string, test: (name: string) => boolean): string[] {
  return isDir(dir) ? readdirSync(dir).filter(test).sort() : [];
}

function jsonAt(p: string): unknown {
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : undefined;
}

/** Entries of a transcribed `*-cases.json` file (`{cases: [...]}` or a bare list). */
export function casesIn(p: string): unknown[] {
  const v = jsonAt(p) as { cases?: unknown[] } | unknown[] | undefined;
  if (Array.isArray(v)) return v;
  return Array.isArray(v?.cases) ? v.cases : [];
}

const XDS = (root: string) => join(root, 'xds');
const AUTHZ = (root: string) => join(XDS(root), 'pilot', 'pkg', 'security', 'authz', 'builder', 'testdata');
const GATEWAY_API = (root: string) => join(XDS(root), 'pilot', 'pkg', 'config', 'kube', 'gateway', 'testdata');
const CONFIGDUMP = (root: string) => join(XDS(root), 'istioctl', 'pkg', 'writer', 'envoy', 'configdump', 'testdata');
const PROXYCONFIG = (root: string) => join(XDS(root), 'istioctl', 'pkg', 'proxyconfig', 'testdata');

/** The golden renders of istioctl's proxy-config writer (see the xds README, 1.1 and 1.2). */
export function istioctlChecks(root: string): string[] {
  const out: string[] = [];
  const cd = CONFIGDUMP(root);
  for (const r of filesIn(join(cd, 'routes'), (n) => isDir(join(cd, 'routes', n)))) out.push(`routes/${r}`);
  for (const f of filesIn(join(cd, 'endpoint'), (n) => /_output\.(txt|json|yaml)$/.test(n))) out.push(`endpoint/${f}`);
  for (const s of filesIn(join(cd, 'secret'), (n) => isDir(join(cd, 'secret', n)))) out.push(`secret/${s}`);
  for (const f of filesIn(join(cd, 'ecds'), (n) => /^output\.(txt|json|yaml)$/.test(n))) out.push(`ecds/${f}`);
  if (existsSync(join(cd, 'bootstrapdump.json'))) out.push('bootstrap');
  if (existsSync(join(cd, 'versionsummary.txt'))) out.push('version-summary');
  for (const f of filesIn(PROXYCONFIG(root), (n) => /^config_dump_summary.*\.txt$/.test(n))) out.push(`proxyconfig/${f}`);
  return out;
}

/** AuthorizationPolicy builder cases: `http/<case>` and `tcp/<case>` for each `<case>-in.yaml`. */
export function authzCases(root: string): string[] {
  const out: string[] = [];
  for (const proto of ['http', 'tcp']) {
    for (const f of filesIn(join(AUTHZ(root), proto), (n) => n.endsWith('-in.yaml'))) out.push(`${proto}/${f.slice(0, -'-in.yaml'.length)}`);
  }
  return out;
}

/** Gateway API conversion cases: each `<case>.yaml` with a `<case>.yaml.golden`. */
export function gatewayApiCases(root: string): string[] {
  const dir = GATEWAY_API(root);
  return filesIn(dir, (n) => n.endsWith('.yaml') && existsSync(join(dir, `${n}.golden`))).map((n) => n.slice(0, -'.yaml'.length));
}

export const SUITE_PARTS: SuitePart[] = [
  {
    suite: 'validation',
    part: 'crds',
    note: 'one per YAML document in crds/',
    run: (root) =>
      (runValidationSuite(join(root, 'validation'))?.results ?? []).map((r) => ({
        suite: 'validation',
        id: r.id,
        analyzer: 'validation/crds',
        passed: r.passed,
        missing: r.passed || r.expected === undefined ? [] : [`error: ${r.expected}`],
        extra: r.passed ? [] : r.got.filter((f) => f.level === 'error').map((f) => `${f.layer}: ${f.message}`),
      })),
    count: (root) => {
      let count = 0;
      const dir = join(root, 'validation', 'crds');
      for (const f of filesIn(dir, (n) => /\.ya?ml$/.test(n))) {
        jsyaml.loadAll(
          readFileSync(join(dir, f), 'utf8'),
          (d) => {
            if (d && typeof d === 'object') count++;
          },
          { schema: jsyaml.CORE_SCHEMA },
        );
      }
      return count;
    },
  },
  { suite: 'xds', part: 'istioctl', note: 'one per golden proxy-config render', count: (root) => istioctlChecks(root).length, run: runIstioctlChecks },
  { suite: 'xds', part: 'authz', note: 'one per AuthorizationPolicy builder input', count: (root) => authzCases(root).length, run: runAuthz },
  {
    suite: 'xds',
    part: 'gateway-api',
    note: 'one per Gateway API conversion case',
    count: (root) => gatewayApiCases(root).length,
    run: (root) => runGatewayApi(root, gatewayApiCases(root)),
  },
  {
    suite: 'xds',
    part: 'simulation',
    note: 'one per entry of simulation-cases.json',
    count: (root) => casesIn(join(XDS(root), 'simulation-cases.json')).length,
    run: runSimulation,
  },
  {
    suite: 'xds',
    part: 'sidecar-routes',
    note: 'one per entry of sidecar-routes-cases.json',
    count: (root) => casesIn(join(XDS(root), 'sidecar-routes-cases.json')).length,
    run: runSidecarRoutes,
  },
  {
    suite: 'xds',
    part: 'vhost-domains',
    note: 'one per entry of vhost-domains-cases.json',
    count: (root) => casesIn(join(XDS(root), 'vhost-domains-cases.json')).length,
    run: runVhostDomains,
  },
  {
    suite: 'certs',
    part: 'expected',
    note: 'one per file entry, chain check, derived file, key match and root-bundle entry in expected.json',
    count: (root) => certCaseCount(root),
    run: (root) => runCerts(root),
  },
  {
    suite: 'ambient',
    part: 'scenarios',
    note: 'one per scenario',
    run: runAmbientScenarios,
    count: (root) => {
      const v = jsonAt(join(root, 'ambient', 'scenarios.json'));
      return Array.isArray(v) ? v.length : 0;
    },
  },
  {
    suite: 'kiali',
    part: 'checkers',
    note: 'one per entry of kiali/cases.json; cases of checkers not written yet are listed as not implemented',
    count: (root) => kialiCases(root).length,
    run: runKiali,
  },
];
