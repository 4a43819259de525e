// Checks Envoy config files strictly against the Envoy v3 protos (src/core/xds/proto).
//   npm run check:envoy -- FILE...            a /config_dump, `istioctl proxy-config all -o json`,
//                                             or one resource with "@type" (JSON or YAML)
//   npm run check:envoy -- --type envoy.config.cluster.v3.Cluster cluster.json
//   flags: --type URL|NAME, --no-constraints, --no-deprecations
// Prints one line per problem (`file: severity $.path: message [code] (resource)`); exits 1 when
// there is an error, 0 otherwise (warnings alone do not fail).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import jsyaml from 'js-yaml';
import { checkConfigDump, checkEnvoyResource, formatProblems, type CheckOptions, type ProtoProblem } from '../src/core/xds/proto/index.ts';

export interface CheckEnvoyIo {
  stdout(s: string): void;
  stderr(s: string): void;
  readFile(path: string): string;
}

const USAGE = 'usage: check-envoy [--type URL|NAME] [--no-constraints] [--no-deprecations] FILE...\n';

export function runCheckEnvoy(argv: readonly string[], io: CheckEnvoyIo): number {
  const files: string[] = [];
  const options: CheckOptions = {};
  let typeUrl: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--type') typeUrl = argv[++i];
    else if (a.startsWith('--type=')) typeUrl = a.slice(7);
    else if (a === '--no-constraints') options.constraints = false;
    else if (a === '--no-deprecations') options.deprecations = false;
    else if (a === '-h' || a === '--help') {
      io.stdout(USAGE);
      return 0;
    } else if (a.startsWith('-')) {
      io.stderr(`check-envoy: unknown flag ${a}\n${USAGE}`);
      return 2;
    } else files.push(a);
  }
  if (files.length === 0 || (typeUrl !== undefined && typeUrl === '')) {
    io.stderr(USAGE);
    return 2;
  }
  let errors = 0;
  let warnings = 0;
  for (const file of files) {
    let doc: unknown;
    try {
      const text = io.readFile(file);
      doc = /\.ya?ml$/i.test(file) ? jsyaml.load(text) : JSON.parse(text);
    } catch (e) {
      io.stderr(`${file}: ${(e as Error).message}\n`);
      errors++;
      continue;
    }
    const isDump =
      typeUrl === undefined && doc !== null && typeof doc === 'object' && !Array.isArray(doc) && Array.isArray((doc as { configs?: unknown }).configs);
    const docs = Array.isArray(doc) ? doc : [doc];
    const problems: ProtoProblem[] = [];
    docs.forEach((d, i) => {
      const found = isDump ? checkConfigDump(d, options) : checkEnvoyResource(d, typeUrl, options);
      for (const p of found) problems.push(docs.length > 1 ? { ...p, path: p.path.replace(/^\$/, `$[${i}]`) } : p);
    });
    for (const line of formatProblems(problems).split('\n').filter(Boolean)) io.stdout(`${file}: ${line}\n`);
    errors += problems.filter((p) => p.severity === 'error').length;
    warnings += problems.filter((p) => p.severity === 'warning').length;
  }
  io.stderr(
    `check-envoy: ${files.length} file${files.length === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
  );
  return errors > 0 ? 1 : 0;
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) {
  process.exitCode = runCheckEnvoy(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readFile: (p) => readFileSync(p, 'utf8'),
  });
}
