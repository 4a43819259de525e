// The `proxyDumpDiff` view: a real Envoy config dump (a workspace file, or pasted text)
// against the config generated for a proxy, resource by resource (core/xds/dumpDiff.ts).
// Asynchronous: the canonical form needs the proto schema, loaded on first use.
import { configDumpFromValue, parseDumpText } from '../xds/configdump/dump.ts';
import { envoyProtoSchema } from '../xds/configdump/protoSchema.ts';
import { diffDumpWithGenerated } from '../xds/dumpDiff.ts';
import { argBag, optString, QueryError, type QueryState } from './common.ts';
import { answerProxyConfig } from './xds.ts';
import type { ProxyDumpDiffResult, ResolvedProvenance } from './views.ts';

export async function answerProxyDumpDiff(raw: unknown, state: QueryState): Promise<ProxyDumpDiffResult> {
  const bag = argBag(raw);
  const file = optString(bag, 'file');
  let text = optString(bag, 'text');
  if (text === undefined) {
    if (file === undefined || file === '') throw new QueryError('The proxyDumpDiff query needs a dump: a workspace file ("file") or its text ("text").');
    const doc = state.document(file, 0);
    if (!doc) throw new QueryError(`No file "${file}" in the workspace.`);
    if (state.document(file, 1)) throw new QueryError(`${file} holds several documents: a config dump is one JSON or YAML document.`);
    text = doc.text;
  }
  const parsed = parseDumpText(text);
  if (!parsed.ok) throw new QueryError(`${file ?? 'The dump'} is not readable: ${parsed.error}`);
  const real = configDumpFromValue(parsed.value);
  if (!real.ok) throw new QueryError(`${file ?? 'The dump'}: ${real.error}`);
  const generated = answerProxyConfig(raw, state);
  const gen = configDumpFromValue(generated.dump);
  if (!gen.ok) throw new QueryError(gen.error);
  const result = diffDumpWithGenerated(real.dump, gen.dump, await envoyProtoSchema());
  // Where the generated side of each difference comes from (the config to look at).
  const table = { listener: 'listeners', route: 'routeConfigs', cluster: 'clusters', endpoints: 'endpoints' } as const;
  const sources: Record<string, ResolvedProvenance[]> = {};
  for (const d of result.differences) {
    if (d.status === 'only-in-dump') continue;
    const refs = (generated.provenance[table[d.type]][d.name] ?? []).filter((r) => r.file);
    if (refs.length > 0) sources[`${d.type}/${d.name}`] = refs.slice(0, 5);
  }
  return { proxy: generated.proxy.id, ...(file ? { file } : {}), ...result, notes: [...real.dump.warnings, ...result.notes], sources };
}
