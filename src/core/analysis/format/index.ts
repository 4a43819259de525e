// Output formats for analysis results. log/json/yaml are istioctl analyze's formats
// byte for byte (except documentation links, which point at /latest/); sarif is ours.
import type { Diagnostic } from '../../document/types.ts';
import { formatLog } from './log.ts';
import { formatJson } from './json.ts';
import { formatYaml } from './yaml.ts';
import { formatSarif, type SarifOptions } from './sarif.ts';

export { formatLog, logLine } from './log.ts';
export { formatJson, documentationUrl, messageFields, ISTIOCTL_DOC_REF } from './json.ts';
export { formatYaml, scalarStyle, yamlMappingEntry } from './yaml.ts';
export { formatSarif, buildSarif, artifactUri, type SarifOptions, type SarifLog } from './sarif.ts';

export const OUTPUT_FORMATS = ['log', 'json', 'yaml', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

export interface FormatOptions extends SarifOptions {
  /** ANSI colors on the level word (log format only). */
  color?: boolean;
}

export function formatDiagnostics(format: OutputFormat, diagnostics: readonly Diagnostic[], options: FormatOptions = {}): string {
  switch (format) {
    case 'log':
      return formatLog(diagnostics, options.color ?? false);
    case 'json':
      return formatJson(diagnostics);
    case 'yaml':
      return formatYaml(diagnostics);
    case 'sarif':
      return formatSarif(diagnostics, options);
  }
}
