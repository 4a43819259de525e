// apiVersion/kind checks: a kind the API server does not serve in that version, a kind that
// does not exist in an API group we know (named, with the closest kind we know), and versions
// the API server serves with a deprecation warning (with the version to move to). Groups we
// know nothing of (other projects' CRDs) are not judged.
import { API_KINDS, apiKind, kindsOfGroup, type ApiKind } from '../../config/api/crd/index.ts';
import type { ValidationFinding } from '../types.ts';
import { editDistance } from '../../document/editDistance.ts';

/** Groups whose kinds we know completely: an unknown kind there is a mistake. */
const JUDGED_GROUPS = new Set(['networking.istio.io', 'security.istio.io', 'telemetry.istio.io', 'extensions.istio.io', 'gateway.networking.k8s.io']);

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Edit distance ignoring case (kinds are ASCII). */
function distance(a: string, b: string): number {
  return editDistance(a.toLowerCase(), b.toLowerCase());
}

function served(k: ApiKind): string {
  return k.versions.map((v) => (k.group ? `${k.group}/${v}` : v)).join(', ');
}

/** What the API server (and kubectl) would say about a document's apiVersion and kind. */
export function kindFindings(apiVersion: string, kind: string): ValidationFinding[] {
  const { group, version } = splitApiVersion(apiVersion);
  const known = apiKind(group, kind);
  const noMatch = `no matches for kind "${kind}" in version "${apiVersion}"`;
  if (known) {
    if (!known.versions.includes(version)) {
      return [{ level: 'error', layer: 'schema', path: 'apiVersion', message: `${noMatch}: ${kind} is served as ${served(known)}` }];
    }
    const warning = known.deprecated?.[version];
    if (warning !== undefined) {
      const to = known.group ? `${known.group}/${known.versions[0]}` : known.versions[0];
      return [{ level: 'warning', layer: 'schema', path: 'apiVersion', message: warning || `${apiVersion} ${kind} is deprecated; use ${to}` }];
    }
    return [];
  }
  if (!JUDGED_GROUPS.has(group)) return [];
  // The kind in another group we know (e.g. AuthorizationPolicy under networking.istio.io)?
  const elsewhere = API_KINDS.find((k) => k.kind === kind);
  if (elsewhere) {
    return [{ level: 'error', layer: 'schema', path: 'apiVersion', message: `${noMatch}: ${kind} is in ${elsewhere.group}, served as ${served(elsewhere)}` }];
  }
  const candidates = kindsOfGroup(group);
  let best: ApiKind | undefined;
  let bestD = Infinity;
  for (const k of candidates) {
    const d = distance(kind, k.kind);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  const hint =
    best && bestD <= Math.max(2, Math.floor(kind.length / 3)) ? `; did you mean ${best.kind}?` : `; ${group} has ${candidates.map((k) => k.kind).join(', ')}`;
  return [{ level: 'error', layer: 'schema', path: 'kind', message: `${noMatch}: ${group} has no kind ${JSON.stringify(kind)}${hint}` }];
}
