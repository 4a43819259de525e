// One entry point for every `istioctl proxy-config` command over a config dump object, whatever
// produced it: a file read by the CLI, a dump pasted in the app, or one generated from the
// workspace. Returns what istioctl would write to stdout, and its error (istioctl prints
// `Error: <error>` and exits 1), never throwing for bad dump content.
import { renderAll, renderSafely, type RenderResult } from './all.ts';
import { clusterTable, type ClusterFilter } from './clusters.ts';
import type { ConfigDump } from './dump.ts';
import { ecdsTable, versionSummary, versionSummaryText } from './ecds.ts';
import { edsTable, hostTable, type EndpointFilter } from './endpoints.ts';
import { listenerTable, waypointListenerTable, type ListenerFilter } from './listeners.ts';
import {
  bootstrapDump,
  clusterStatusesDump,
  clustersDump,
  ecdsDump,
  edsDump,
  listenersDump,
  rawDump,
  routesDump,
  secretsDump,
  type DumpFormat,
} from './output.ts';
import type { ProtoSchema } from './protoSchema.ts';
import { routeTable, type RouteFilter } from './routes.ts';
import { secretSummary, secretSummaryText } from './secrets.ts';
import { tableText } from './table.ts';

export type { RenderResult } from './all.ts';

export const PROXY_CONFIG_COMMANDS = ['clusters', 'listeners', 'routes', 'endpoints', 'eds', 'secret', 'ecds', 'bootstrap', 'all'] as const;
export type ProxyConfigCommand = (typeof PROXY_CONFIG_COMMANDS)[number];

export type OutputFormat = 'short' | DumpFormat;

export interface ProxyConfigRequest {
  command: ProxyConfigCommand;
  /** `short` (tables) by default; `json` by default for bootstrap, as istioctl. */
  output?: OutputFormat;
  /** Clock for the secrets' VALID CERT column. */
  now: Date;
  /** Needed for `-o json|yaml` (except `all`, which prints the dump itself). */
  schema?: ProtoSchema;
  cluster?: ClusterFilter;
  listener?: ListenerFilter;
  route?: RouteFilter;
  endpoint?: EndpointFilter;
  /** `all`: `------ X INFO ------` banners. */
  withHeaders?: boolean;
  /** `listeners --waypoint`: the listener/chain/matcher view (whatever the output format, as istioctl). */
  waypoint?: boolean;
}

/** The input of a render: a config dump, or Envoy's `/clusters?format=json` for `endpoints`. */
export type ProxyConfigInput = { dump: ConfigDump } | { clusters: unknown };

export function defaultOutput(command: ProxyConfigCommand): OutputFormat {
  return command === 'bootstrap' ? 'json' : 'short';
}

/** Renders one proxy-config command. `all -o json|yaml` needs the dump's text and is the caller's (see output.rawDump). */
export function renderProxyConfig(input: ProxyConfigInput, req: ProxyConfigRequest): RenderResult {
  const output = req.output ?? defaultOutput(req.command);
  if (output !== 'short' && output !== 'json' && output !== 'yaml') return { text: '', error: `output format ${JSON.stringify(output)} not supported` };
  if ('clusters' in input) {
    if (req.command !== 'endpoints') return { text: '', error: `${req.command} needs a config dump, not the output of /clusters` };
    if (output === 'short') return renderSafely([() => tableText(hostTable(input.clusters, req.endpoint))]);
    return withSchema(req, (schema) => clusterStatusesDump(input.clusters, req.endpoint ?? {}, schema, output));
  }
  const dump = input.dump;
  if (req.command === 'listeners' && req.waypoint) return renderSafely([() => tableText(waypointListenerTable(dump))]);
  if (output === 'short') {
    switch (req.command) {
      case 'clusters':
        return renderSafely([() => tableText(clusterTable(dump, req.cluster))]);
      case 'listeners':
        return renderSafely([() => tableText(listenerTable(dump, req.listener))]);
      case 'routes':
        return renderSafely([() => tableText(routeTable(dump, req.route))]);
      case 'endpoints':
      case 'eds':
        return renderSafely([() => tableText(edsTable(dump, req.endpoint))]);
      case 'secret':
        return renderSafely([() => secretSummaryText(secretSummary(dump, { now: req.now }))]);
      case 'ecds':
        return renderSafely([() => tableText(ecdsTable(dump))]);
      case 'bootstrap':
        return renderSafely([() => versionSummaryText(versionSummary(dump))]);
      case 'all':
        return renderAll(dump, {
          now: req.now,
          withHeaders: req.withHeaders,
          cluster: req.cluster,
          listener: req.listener,
          route: req.route,
          endpoint: req.endpoint,
        });
    }
  }
  if (req.command === 'all') {
    const json = dump.toJson();
    return renderSafely([() => rawDump(JSON.stringify(json, null, 2), json, output)]);
  }
  return withSchema(req, (schema) => {
    switch (req.command) {
      case 'clusters':
        return clustersDump(dump, req.cluster ?? {}, schema, output);
      case 'listeners':
        return listenersDump(dump, req.listener ?? {}, schema, output);
      case 'routes':
        return routesDump(dump, req.route ?? {}, schema, output);
      case 'endpoints':
      case 'eds':
        return edsDump(dump, req.endpoint ?? {}, schema, output);
      case 'secret':
        return secretsDump(dump, schema, output);
      case 'ecds':
        return ecdsDump(dump, schema, output);
      case 'bootstrap':
        return bootstrapDump(dump, schema, output);
    }
    return '';
  });
}

function withSchema(req: ProxyConfigRequest, f: (schema: ProtoSchema) => string): RenderResult {
  if (!req.schema) return { text: '', error: 'the proto schema is needed for -o json|yaml' };
  const schema = req.schema;
  return renderSafely([() => f(schema)]);
}
