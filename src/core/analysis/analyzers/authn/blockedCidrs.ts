// authn.BlockedCIDRsAnalyzer: when RequestAuthentication resources exist, each istiod
// Deployment (label app=istiod) should set BLOCKED_CIDRS_IN_JWKS_URIS on a container so JWKS
// fetches cannot reach arbitrary networks (IST0175 on the Deployment).
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import type { Resource } from '../../../document/types.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { workloadControllerSpec, type Container } from '../../../config/api/kube.ts';
import { writtenAt } from '../../../config/views.ts';

const ENV_NAME = 'BLOCKED_CIDRS_IN_JWKS_URIS';
const MAX_LISTED = 5;

/** The istiod Deployment's containers. */
function containersOf(d: Resource): readonly Container[] {
  return workloadControllerSpec(d).template?.spec?.containers ?? [];
}

function hasBlockedCidrsEnv(containers: readonly Container[]): boolean {
  return containers.some((c) => c.env.some((e) => e.name === ENV_NAME && e.value !== ''));
}

/**
 * Where the variable belongs (built only when reporting): an entry that sets it empty, else
 * the first container's env list, else the first container's name, else the containers list.
 */
function envHighlightPath(d: Resource, containers: readonly Container[]): string {
  const containersPath = 'spec.template.spec.containers';
  const containersAt = ['spec', 'template', 'spec', 'containers'];
  for (let i = 0; i < containers.length; i++) {
    const j = (containers[i] as Container).env.findIndex((e) => e.name === ENV_NAME);
    if (j >= 0) return `${containersPath}[${i}].env[${j}]${writtenAt(d, [...containersAt, i, 'env', j, 'value']) !== 'absent' ? '.value' : '.name'}`;
  }
  if (writtenAt(d, [...containersAt, 0, 'env']) === 'list') return `${containersPath}[0].env`;
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
      const containers = containersOf(d);
      if (hasBlockedCidrsEnv(containers)) continue;
      ctx.report(MESSAGES.JwksUriFetchUnrestricted.at(d, names.length, formatNames(names)), { highlightPath: envHighlightPath(d, containers) });
    }
  },
};
