// The js-yaml configuration every YAML reader of the project agrees with: the fast reader
// builds the same values, the full path calls js-yaml with it, and the tests and the fuzzer
// compare against it.
//
// js-yaml parses; what a plain scalar means is decided here, the way Kubernetes decides it.
// kubectl and istioctl turn YAML into JSON with sigs.k8s.io/yaml, which reads it with go-yaml
// v2 (resolve.go), a YAML 1.1 reader: `yes`, `on`, `y` are true and `no`, `off`, `n` false,
// `0644` is octal (420), `1_000` is 1000, and `0X1F`, `0O17`, `0B101` and `+.5` are numbers.
// A YAML 1.2 reader (js-yaml's core schema, the `yaml` package) keeps all of those as text,
// which would read `insecureSkipVerify: yes` as a wrong-typed string and `value: on` as text
// kubectl rejects. Timestamps stay strings (go-yaml v2 hands them back as text too).
import jsyaml from 'js-yaml';

const mergeType = (jsyaml as unknown as { types: { merge: jsyaml.Type } }).types.merge;

/** go-yaml v2's spellings of true and false (resolveMapList). */
const TRUE_WORDS = ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'];
const FALSE_WORDS = ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'];
const BOOL_WORDS = new Map<string, boolean>([...TRUE_WORDS.map((w) => [w, true] as const), ...FALSE_WORDS.map((w) => [w, false] as const)]);

/** go-yaml v2's spellings of null (the empty scalar is null too). */
const NULL_WORDS = new Set(['', '~', 'null', 'Null', 'NULL']);

/** The words a plain scalar starting with a letter can mean something other than text by (no number starts with a letter). */
export const KUBE_LETTER_WORDS: ReadonlyMap<string, boolean | null> = new Map<string, boolean | null>([
  ...BOOL_WORDS,
  ...['null', 'Null', 'NULL'].map((w) => [w, null] as const),
]);

/** The special floats go-yaml v2 looks up by name. */
const FLOAT_WORDS = new Map<string, number>([
  ...['.nan', '.NaN', '.NAN'].map((w) => [w, Number.NaN] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((w) => [w, Number.POSITIVE_INFINITY] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((w) => [w, Number.NEGATIVE_INFINITY] as const),
]);

// Go's integer literal syntax as strconv.ParseInt(s, 0, 64) reads it once go-yaml has taken
// every `_` out: a sign, then a 0b/0o/0x prefix (either case), a leading 0 (octal), or decimal.
const GO_BINARY = /^[-+]?0[bB][01]+$/;
const GO_OCTAL_PREFIXED = /^[-+]?0[oO][0-7]+$/;
const GO_HEX = /^[-+]?0[xX][0-9a-fA-F]+$/;
const GO_OCTAL = /^[-+]?0[0-7]*$/;
const GO_DECIMAL = /^[-+]?[1-9][0-9]*$/;
const INT64_MIN_MAGNITUDE = 2n ** 63n;
const UINT64_MAX = 2n ** 64n - 1n;

/** go-yaml v2's yamlStyleFloat, tried when the text is not an integer. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** Go's decimal float syntax for a text that starts with `.` (strconv.ParseFloat, underscores between digits). */
const GO_DOT_FLOAT = /^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/;

/** Whether the text (underscores dropped) is in Go's integer syntax: go-yaml v2 tries integers before floats. */
function inGoIntegerSyntax(text: string): boolean {
  const plain = text.replace(/_/g, '');
  return GO_BINARY.test(plain) || GO_OCTAL_PREFIXED.test(plain) || GO_HEX.test(plain) || GO_OCTAL.test(plain) || GO_DECIMAL.test(plain);
}

/** The number go-yaml v2 makes of a plain scalar starting with a sign or a digit, if any. */
function goNumber(text: string): number | undefined {
  const plain = text.replace(/_/g, '');
  const sign = plain.charCodeAt(0) === 45 ? -1 : 1;
  const digits = plain.replace(/^[-+]/, '');
  // The digits as a JavaScript BigInt literal (a leading-0 octal written as 0o).
  let literal: string | undefined;
  if (GO_BINARY.test(plain) || GO_OCTAL_PREFIXED.test(plain) || GO_HEX.test(plain)) literal = `0${digits.charAt(1).toLowerCase()}${digits.slice(2)}`;
  else if (GO_OCTAL.test(plain)) literal = `0o${digits.slice(1) || '0'}`;
  else if (GO_DECIMAL.test(plain)) literal = digits;
  if (literal !== undefined) {
    const n = BigInt(literal);
    // Beyond 64 bits (below -2^63, above 2^64-1) ParseInt and ParseUint both fail.
    if (n <= (sign < 0 ? INT64_MIN_MAGNITUDE : UINT64_MAX)) return sign * Number(n) + 0; // `+ 0`: no negative zero integer in Go
  }
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    // ParseFloat reports overflow as an error: the text stays a string.
    return Number.isFinite(f) ? f : undefined;
  }
  return undefined;
}

/** What go-yaml v2 resolves a plain scalar to (resolve.go `resolve` with no tag), or the text itself. */
export function resolveKubeScalar(text: string): unknown {
  if (NULL_WORDS.has(text)) return null;
  const bool = BOOL_WORDS.get(text);
  if (bool !== undefined) return bool;
  const special = FLOAT_WORDS.get(text);
  if (special !== undefined) return special;
  const c = text.charCodeAt(0);
  if (c === 46) {
    // A leading `.`: a float (strconv.ParseFloat on the text as written).
    if (GO_DOT_FLOAT.test(text)) {
      const f = Number(text.replace(/_/g, ''));
      if (Number.isFinite(f)) return f;
    }
    return text;
  }
  if ((c >= 48 && c <= 57) || c === 43 || c === 45) {
    const n = goNumber(text);
    if (n !== undefined) return n;
  }
  return text;
}

const isText = (data: string | null): data is string => typeof data === 'string';

const nullType = new jsyaml.Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => data === null || NULL_WORDS.has(data),
  construct: () => null,
  predicate: (o: unknown) => o === null,
  represent: { canonical: () => '~', lowercase: () => 'null' },
  defaultStyle: 'lowercase',
});

const boolType = new jsyaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => isText(data) && BOOL_WORDS.has(data),
  construct: (data: string) => BOOL_WORDS.get(data) === true,
  predicate: (o: unknown) => typeof o === 'boolean',
  represent: { lowercase: (o: object) => (o ? 'true' : 'false') },
  defaultStyle: 'lowercase',
});

const intType = new jsyaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) => {
    if (!isText(data)) return false;
    const c = data.charCodeAt(0);
    if (!((c >= 48 && c <= 57) || c === 43 || c === 45)) return false;
    const n = goNumber(data);
    return n !== undefined && Number.isInteger(n) && inGoIntegerSyntax(data);
  },
  construct: (data: string) => goNumber(data) as number,
  predicate: (o: unknown) => typeof o === 'number' && Number.isInteger(o),
  represent: { decimal: (o: object) => String(o) },
  defaultStyle: 'decimal',
});

const floatType = new jsyaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) => {
    if (!isText(data)) return false;
    if (FLOAT_WORDS.has(data)) return true;
    const v = resolveKubeScalar(data);
    return typeof v === 'number' && !inGoIntegerSyntax(data);
  },
  construct: (data: string) => resolveKubeScalar(data) as number,
  predicate: (o: unknown) => typeof o === 'number',
  represent: { lowercase: (o: object) => String(o) },
  defaultStyle: 'lowercase',
});

/**
 * Plain scalars resolved as go-yaml v2 resolves them (see the top of this file), with merge
 * keys (`<<`) resolved implicitly, as kubectl, PyYAML and js-yaml's default schema do.
 */
export const YAML_SCHEMA: jsyaml.Schema = jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [nullType, boolType, intType, floatType, mergeType] });

/** Options for `jsyaml.load`: js-yaml's own limits (nesting depth 100, 10,000 merged keys) stay in force. */
export const YAML_LOAD_OPTIONS: jsyaml.LoadOptions = { schema: YAML_SCHEMA };

/** The nesting limit js-yaml enforces with these options (its default `maxDepth`). */
export const MAX_YAML_DEPTH = 100;

/** js-yaml's load with the project's options; throws js-yaml's error on bad input. */
export function loadYaml(text: string, options: jsyaml.LoadOptions = {}): unknown {
  return jsyaml.load(text, { ...YAML_LOAD_OPTIONS, ...options });
}
