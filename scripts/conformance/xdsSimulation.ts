// xds/simulation: the transcribed simulation-test expectations (../shared/conformance/xds/
// simulation-cases.json). Each case builds the workspace the Go test builds, generates the
// proxy's listeners and routes, runs the call through src/core/xds/simulate.ts (a port of
// pilot/pkg/simulation/traffic.go) and compares as Result.Matches does.
import { join } from 'node:path';
import { casesIn } from './parts.ts';
import type { CaseResult } from './types.ts';
import { harnessProxy, harnessView, type HarnessInput, type HarnessProxy } from './xdsHarness.ts';
import { generateForProxy, routeNamesFromListeners } from '../../src/core/xds/generate.ts';
import { simulate, type SimCall, type SimResult } from '../../src/core/xds/simulate.ts';

interface SimCase extends HarnessInput {
  name: string;
  source?: string;
  proxy?: HarnessProxy;
  call: SimCall;
  expected: Partial<Record<'listener' | 'filterChain' | 'routeConfig' | 'virtualHost' | 'route' | 'cluster' | 'error', string>> & { strict?: boolean };
  notes?: string;
}

const FIELDS = ['listener', 'filterChain', 'routeConfig', 'virtualHost', 'route', 'cluster'] as const;

/** Result.Matches: the error always; listed fields when not strict; every field when strict. */
export function compareSimulation(want: SimCase['expected'], got: SimResult): string[] {
  const problems: string[] = [];
  if ((want.error ?? '') !== (got.error ?? '')) problems.push(`error: want ${want.error ?? '(none)'} got ${got.error ?? '(none)'}`);
  for (const f of FIELDS) {
    const w = want[f] ?? '';
    const g = got[f] ?? '';
    if (want.strict ? w !== g : w !== '' && w !== g) problems.push(`${f}: want ${JSON.stringify(w)} got ${JSON.stringify(g)}`);
  }
  return problems;
}

export function runSimulationCase(c: SimCase): CaseResult {
  const id = `xds/simulation/${c.name}`;
  let got: SimResult;
  try {
    const view = harnessView(c);
    const gen = generateForProxy(view, harnessProxy(c.proxy), { configDomainSuffix: '', assumeClusterIps: false });
    const names = new Set(routeNamesFromListeners(gen.listeners));
    got = simulate({ listeners: gen.listeners, routes: gen.routes.filter((r) => names.has(String(r.name))) }, c.call);
  } catch (e) {
    return {
      suite: 'xds',
      id,
      analyzer: 'xds/simulation',
      passed: false,
      missing: [],
      extra: [],
      error: `threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    };
  }
  const problems = compareSimulation(c.expected, got);
  const passed = problems.length === 0;
  return {
    suite: 'xds',
    id,
    analyzer: 'xds/simulation',
    passed,
    missing: [],
    extra: [],
    ...(passed ? {} : { error: `${problems.join('; ')}\ntrace: ${got.trace.join(' → ')}` }),
  };
}

export function runSimulation(root: string): CaseResult[] {
  const file = join(root, 'xds', 'simulation-cases.json');
  return (casesIn(file) as SimCase[]).map(runSimulationCase);
}
