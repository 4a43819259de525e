// authn.BlockedCIDRsAnalyzer: when RequestAuthentication resources exist, each istiod
// Deployment (label app=istiod) should set BLOCKED_CIDRS_IN_JWKS_URIS on a container so JWKS
// fetches cannot reach arbitrary networks (IST0175 on the Deployment).
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, specOf, str } from '../../../model/read.ts';
import { fullNameString } from '../../../config/hosts.ts';

const ENV_NAME = 'BLOCKED_CIDRS_IN_JWKS_URIS';
const MAX_LISTED = 5;

function hasBlockedCidrsEnv(deploymentSpec: Record<string, unknown>): boolean {
  const template = isObj(deploymentSpec.template) ? deploymentSpec.template : {};
  const podSpec = isObj(template.spec) ? template.spec : {};
  for (const c of arr(podSpec.containers)) {
    if (!isObj(c)) continue;
    for (const e of arr(c.env)) {
      if (isObj(e) && str(e.name) === ENV_NAME && str(e.value) !== '') return true;
    }
  }
  return false;
}

/**
 * Where the variable belongs (built only when reporting): an entry that sets it empty, else
 * the first container's env list, else the first container's name, else the containers list.
 */
function envHighlightPath(deploymentSpec: Record<string, unknown>): string {
  const containersPath = 'spec.template.spec.containers';
  const template = isObj(deploymentSpec.template) ? deploymentSpec.template : {};
  const containers = arr(isObj(template.spec) ? template.spec.containers : undefined);
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    if (!isObj(c)) continue;
    const env = arr(c.env);
    const j = env.findIndex((e) => isObj(e) && str(e.name) === ENV_NAME);
    if (j >= 0) return `${containersPath}[${i}].env[${j}]${isObj(env[j]) && 'value' in env[j] ? '.value' : '.name'}`;
  }
  const first = containers[0];
  if (isObj(first) && Array.isArray(first.env)) return `${containersPath}[0].env`;
  return containers.length > 0 ? `${containersPath}[0].name` : containersPath;
}

/** Up to five names, then `, and N more`. */
export function formatNames(names: readonly string[]): string {
  if (names.length <= MAX_LISTED) return names.join(', ');
  return `${names.slice(0, MAX_LISTED).join(', ')}, and ${names.length - MAX_LISTED} more`;
}

export const blockedCidrsAnalyzer: Analyzer = {
  metadata: {
    name: 'authn.BlockedCIDRsAnalyzer',
    description: 'Checks that istiod restricts JWKS URI fetches with BLOCKED_CIDRS_IN_JWKS_URIS when RequestAuthentication is used',
    inputs: [KINDS.RequestAuthentication, KINDS.Deployment],
  },
  analyze(ctx) {
    const names = ctx.list(KINDS.RequestAuthentication).map((r) => fullNameString(r.namespace, r.name));
    if (names.length === 0) return;
    for (const d of ctx.list(KINDS.Deployment)) {
      if (d.labels.app !== 'istiod') continue;
      if (hasBlockedCidrsEnv(specOf(d))) continue;
      ctx.report(MESSAGES.JwksUriFetchUnrestricted.at(d, names.length, formatNames(names)), { highlightPath: envHighlightPath(specOf(d)) });
    }
  },
};
