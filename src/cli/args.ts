// Command-line parsing in the style of cobra/pflag (what istioctl uses), so the same
// command lines work: `--flag value`, `--flag=value`, `-o json`, `-ojson`, `-o=json`,
// grouped short booleans (`-Av`), `--bool=false`, repeatable flags, `--` to end flags.

export type FlagKind = 'bool' | 'string' | 'list';

export interface FlagSpec {
  long: string;
  short?: string;
  kind: FlagKind;
  /** Value placeholder in help (`string`, `level`, …). */
  arg?: string;
  help: string;
  /** Hidden from help (accepted for istioctl compatibility). */
  hidden?: boolean;
}

export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  /** Flag values by long name; lists hold every occurrence. Only flags that were given. */
  values: Map<string, string | boolean | string[]>;
}

const TRUE_WORDS = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** Go's strconv.ParseBool, which pflag uses for `--flag=value` on booleans. */
export function parseBool(flag: string, v: string): boolean {
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  throw new UsageError(`invalid argument "${v}" for "${flag}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

function flagLabel(spec: FlagSpec): string {
  return spec.short ? `-${spec.short}, --${spec.long}` : `--${spec.long}`;
}

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.long, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const positionals: string[] = [];
  const values = new Map<string, string | boolean | string[]>();
  const set = (spec: FlagSpec, v: string | boolean) => {
    if (spec.kind === 'list') {
      const list = (values.get(spec.long) as string[] | undefined) ?? [];
      list.push(String(v));
      values.set(spec.long, list);
    } else {
      values.set(spec.long, v);
    }
  };
  let i = 0;
  while (i < argv.length) {
    const tok = argv[i++]!;
    if (tok === '--') {
      positionals.push(...argv.slice(i));
      break;
    }
    if (tok.startsWith('--')) {
      const eq = tok.indexOf('=');
      const name = eq < 0 ? tok.slice(2) : tok.slice(2, eq);
      const spec = byLong.get(name);
      if (!spec) throw new UsageError(`unknown flag: --${name}`);
      if (spec.kind === 'bool') {
        set(spec, eq < 0 ? true : parseBool(flagLabel(spec), tok.slice(eq + 1)));
      } else if (eq >= 0) {
        set(spec, tok.slice(eq + 1));
      } else {
        if (i >= argv.length) throw new UsageError(`flag needs an argument: --${name}`);
        set(spec, argv[i++]!);
      }
      continue;
    }
    if (tok.startsWith('-') && tok.length > 1) {
      // Shorthand group: booleans consume one letter; a value flag takes the rest.
      let j = 1;
      while (j < tok.length) {
        const ch = tok[j]!;
        const spec = byShort.get(ch);
        if (!spec) throw new UsageError(`unknown shorthand flag: '${ch}' in ${tok}`);
        j++;
        const rest = tok.slice(j);
        if (spec.kind === 'bool') {
          if (rest.startsWith('=')) {
            set(spec, parseBool(flagLabel(spec), rest.slice(1)));
            break;
          }
          set(spec, true);
          continue;
        }
        if (rest.length > 0) set(spec, rest.startsWith('=') ? rest.slice(1) : rest);
        else {
          if (i >= argv.length) throw new UsageError(`flag needs an argument: '${ch}' in -${ch}`);
          set(spec, argv[i++]!);
        }
        break;
      }
      continue;
    }
    positionals.push(tok);
  }
  return { positionals, values };
}

/** Help lines for the flags, aligned like cobra's. */
export function flagHelp(specs: readonly FlagSpec[]): string {
  const rows = specs
    .filter((s) => !s.hidden)
    .map((s) => {
      const names = s.short ? `-${s.short}, --${s.long}` : `    --${s.long}`;
      const arg = s.kind === 'bool' ? '' : ` ${s.arg ?? (s.kind === 'list' ? 'stringArray' : 'string')}`;
      return [`  ${names}${arg}`, s.help] as const;
    });
  const width = Math.max(...rows.map(([l]) => l.length)) + 3;
  return rows.map(([l, h]) => `${l.padEnd(width)}${h.replace(/\n/g, `\n${' '.repeat(width)}`)}`).join('\n');
}
