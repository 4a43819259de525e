// Target `cli-args`: the command-line parser. Any argv either parses or throws the
// documented UsageError; a parse gives only declared flags with values of their kind and
// positionals taken in order from argv; and writing the result back as a canonical argv
// (`--flag=value` for each value, then `--` and the positionals) parses to the same result.
import fc from 'fast-check';
import { parseArgs, UsageError, type FlagSpec, type ParsedArgs } from '../../src/cli/args.ts';
import { ANALYZE_FLAGS } from '../../src/cli/analyze.ts';
import { FuzzFailure, describeError, guarded } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

export interface CliArgsInput {
  argv: string[];
}

/** The flags runCli parses with. */
const SPECS: FlagSpec[] = [...ANALYZE_FLAGS, { long: 'version', kind: 'bool', help: '' }];

const VALUES = [
  'json',
  'log',
  'Error',
  'info',
  'x',
  '',
  ' ',
  '=',
  '==',
  'a=b',
  '-',
  '--',
  '-x',
  '--x',
  'IST0101=Pod *',
  'é',
  '😀',
  'true',
  'false',
  'T',
  '0',
  '1',
  'nope',
  'a b',
  '\n',
  '\u0000',
  '1s',
  '-o',
  '-L',
];

const tokenArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECS.map((s) => `--${s.long}`)) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...SPECS.map((s) => s.long)), fc.constantFrom(...VALUES)).map(([l, v]) => `--${l}=${v}`) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECS.filter((s) => s.short).map((s) => `-${s.short}`)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...SPECS.filter((s) => s.short).map((s) => s.short as string)), fc.constantFrom(...VALUES))
      .map(([s, v]) => `-${s}${v}`),
  },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...'ALvhRkoSnrx='), { minLength: 1, maxLength: 4 }).map((cs) => `-${cs.join('')}`) },
  { weight: 3, arbitrary: fc.constantFrom(...VALUES, 'analyze', 'help', 'file.yaml', 'dir/', '--', '-', '---', '--=', '-=', '--nope', '-Z') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

function sameParse(a: ParsedArgs, b: ParsedArgs): boolean {
  return JSON.stringify([a.positionals, [...a.values].sort()]) === JSON.stringify([b.positionals, [...b.values].sort()]);
}

/** The parse written back as argv that must read the same. */
function canonical(p: ParsedArgs): string[] {
  const out: string[] = [];
  for (const [name, v] of p.values) {
    for (const one of Array.isArray(v) ? v : [v]) out.push(`--${name}=${String(one)}`);
  }
  return [...out, '--', ...p.positionals];
}

export function checkCliArgs(input: CliArgsInput, options: CheckOptions): CheckOutcome {
  const { argv } = input;
  const t0 = performance.now();
  let parsed: ParsedArgs | undefined;
  let usage: UsageError | undefined;
  try {
    parsed = parseArgs(argv, SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw new FuzzFailure('crash', `parseArgs threw ${describeError(e)} (not a UsageError)`);
    usage = e;
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `parseArgs took ${ms.toFixed(0)} ms`);
  if (usage || !parsed) {
    if (!usage?.message || /undefined|\[object/.test(usage.message))
      throw new FuzzFailure('divergence', `usage error without a sane message: ${JSON.stringify(usage?.message)}`);
    return 'ok';
  }
  const byLong = new Map(SPECS.map((s) => [s.long, s]));
  for (const [name, v] of parsed.values) {
    const spec = byLong.get(name);
    if (!spec) throw new FuzzFailure('divergence', `undeclared flag ${name} in the result`);
    const ok =
      spec.kind === 'bool'
        ? typeof v === 'boolean'
        : spec.kind === 'string'
          ? typeof v === 'string'
          : Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
    if (!ok) throw new FuzzFailure('divergence', `--${name} (${spec.kind}) has ${JSON.stringify(v)}`);
  }
  // Positionals come from argv, in order.
  let at = 0;
  for (const p of parsed.positionals) {
    while (at < argv.length && argv[at] !== p) at++;
    if (at >= argv.length) throw new FuzzFailure('divergence', `positional ${JSON.stringify(p)} is not in argv (in order)`);
    at++;
  }
  const again = guarded('parseArgs (canonical)', options.timeLimitMs, () => parseArgs(canonical(parsed), SPECS));
  if (!sameParse(parsed, again)) throw new FuzzFailure('divergence', `canonical argv ${JSON.stringify(canonical(parsed))} parses differently`);
  return 'ok';
}

export const cliArgsTarget: Target<CliArgsInput> = {
  name: 'cli-args',
  description: 'CLI argument parser: only UsageError, sane and canonical results',
  arbitrary: () => fc.record({ argv: fc.array(tokenArb, { maxLength: 8 }) }),
  check: checkCliArgs,
  async: false,
  smokeRuns: 4000,
};
