// SARIF 2.1.0 output (`-o sarif`), for code-scanning tools. Not an istioctl format: it
// carries everything we know, including parser problems (MWB-… codes) and exact ranges.
// Pure: no Node APIs.
import type { Diagnostic, Level } from '../../document/types.ts';
import { docUrl, messageByCode } from '../messages.ts';
import { PARSER_CODES } from '../../document/parse.ts';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const TOOL_NAME = 'mesh-workbench';

export interface SarifOptions {
  toolVersion?: string;
  informationUri?: string;
}

type SarifLevel = 'error' | 'warning' | 'note';

const LEVELS: Record<Level, SarifLevel> = { Error: 'error', Warning: 'warning', Info: 'note' };

/** Names and descriptions of our own (non-Istio) codes. */
const OWN_RULES: Record<string, { name: string; description: string }> = {
  [PARSER_CODES.syntax]: { name: 'YamlSyntaxError', description: 'The file is not valid YAML, so the document could not be read.' },
  [PARSER_CODES.duplicateKey]: { name: 'YamlDuplicateKey', description: 'A mapping repeats a key; Kubernetes would keep only one of the values.' },
  [PARSER_CODES.aliasLimit]: {
    name: 'YamlAliasLimit',
    description: 'The document expands too many YAML aliases and was not read, to protect against alias bombs.',
  },
  [PARSER_CODES.json]: { name: 'JsonSyntaxError', description: 'The file is not valid JSON, so it could not be read.' },
  [PARSER_CODES.notK8s]: {
    name: 'NotKubernetesObject',
    description: 'The document has no string apiVersion and kind, so it is not a Kubernetes object and was skipped.',
  },
  [PARSER_CODES.binary]: { name: 'BinaryFile', description: 'The file looks binary rather than YAML or JSON text and was skipped.' },
  [PARSER_CODES.tooLarge]: { name: 'FileTooLarge', description: 'The file is larger than the analysis limit and was skipped.' },
  [PARSER_CODES.badList]: { name: 'BadList', description: 'A List document does not have a valid items array.' },
};

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: SarifRun[];
}

export interface SarifRun {
  tool: { driver: SarifDriver };
  results: SarifResult[];
}

export interface SarifDriver {
  name: string;
  version?: string;
  informationUri?: string;
  rules?: SarifRule[];
}

export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  helpUri?: string;
  defaultConfiguration?: { level: SarifLevel };
}

export interface SarifRegion {
  startLine: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}

export interface SarifLocation {
  physicalLocation?: { artifactLocation: { uri: string }; region?: SarifRegion };
  logicalLocations?: Array<{ name: string; fullyQualifiedName: string; kind: string }>;
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations?: SarifLocation[];
}

/** A file path as a SARIF URI reference: forward slashes, percent-encoded, `file://` when absolute. */
export function artifactUri(path: string): string {
  let p = path.replace(/\\/g, '/');
  let prefix = '';
  if (/^[A-Za-z]:\//.test(p)) {
    prefix = 'file:///';
  } else if (p.startsWith('/')) {
    prefix = 'file://';
  } else if (p.startsWith('./')) {
    p = p.replace(/^(\.\/)+/, '');
  }
  const encoded = p
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%3A/gi, ':'))
    .join('/');
  return prefix + encoded;
}

function ruleFor(d: Diagnostic): SarifRule {
  const type = messageByCode(d.code);
  const own = OWN_RULES[d.code];
  const rule: SarifRule = {
    id: d.code,
    name: type?.name ?? own?.name ?? d.code,
    shortDescription: { text: type?.description ?? own?.description ?? d.message },
  };
  const help = type ? docUrl(d.code) : d.docUrl;
  if (help) rule.helpUri = help;
  rule.defaultConfiguration = { level: LEVELS[type?.level ?? d.level] };
  return rule;
}

/** The origin `Kind ns/name` as a SARIF logical location. */
function logicalLocation(origin: string): { name: string; fullyQualifiedName: string; kind: string } {
  const sp = origin.indexOf(' ');
  const name = sp < 0 ? origin : origin.slice(sp + 1);
  return { name, fullyQualifiedName: origin, kind: 'resource' };
}

function regionOf(d: Diagnostic): SarifRegion | undefined {
  const r = d.range;
  if (r) return { startLine: r.startLine, startColumn: r.startCol, endLine: r.endLine, endColumn: r.endCol };
  if (d.line !== undefined) return { startLine: d.line };
  return undefined;
}

export function buildSarif(diagnostics: readonly Diagnostic[], options: SarifOptions = {}): SarifLog {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: SarifResult[] = [];
  for (const d of diagnostics) {
    let idx = ruleIndex.get(d.code);
    if (idx === undefined) {
      idx = rules.length;
      ruleIndex.set(d.code, idx);
      rules.push(ruleFor(d));
    }
    const result: SarifResult = { ruleId: d.code, ruleIndex: idx, level: LEVELS[d.level], message: { text: d.message } };
    const loc: SarifLocation = {};
    if (d.file) {
      loc.physicalLocation = { artifactLocation: { uri: artifactUri(d.file) } };
      const region = regionOf(d);
      if (region) loc.physicalLocation.region = region;
    }
    if (d.origin) loc.logicalLocations = [logicalLocation(d.origin)];
    if (loc.physicalLocation || loc.logicalLocations) result.locations = [loc];
    results.push(result);
  }
  const driver: SarifDriver = { name: TOOL_NAME };
  if (options.toolVersion) driver.version = options.toolVersion;
  driver.informationUri = options.informationUri ?? 'https://istio.io/latest/docs/reference/config/analysis/';
  driver.rules = rules;
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [{ tool: { driver }, results }] };
}

/** The SARIF log as pretty-printed JSON with a trailing newline. */
export function formatSarif(diagnostics: readonly Diagnostic[], options: SarifOptions = {}): string {
  return `${JSON.stringify(buildSarif(diagnostics, options), null, 2)}\n`;
}
