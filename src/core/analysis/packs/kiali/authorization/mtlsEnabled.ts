// authorization.MtlsEnabledChecker (Kiali business/checkers/authorization/mtls_enabled_checker.go):
// an AuthorizationPolicy whose rules read the peer identity (from.source principals,
// notPrincipals, namespaces, notNamespaces; when source.namespace, source.principal or
// connection.sni) needs mTLS on the workloads it selects. When Kiali finds those workloads do
// not receive mTLS (workload PeerAuthentications, then namespace and mesh status, auto-mTLS),
// each such field gets KIA0105 and the policy is invalid. The PeerAuthentications are those of
// the policy's namespace and, for the mesh level, of the root namespace, as Kiali gathers them.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { arr, isObj, str, stringMap, type Obj } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { MTLS_DISABLED, MTLS_ENABLED, MTLS_NOT_ENABLED, MtlsStatus } from '../mtls.ts';
import type { KialiChecker } from '../types.ts';

const KEYS_WITH_MTLS = ['source.namespace', 'source.principal', 'connection.sni'];
const SOURCE_FIELDS = ['principals', 'notPrincipals', 'namespaces', 'notNamespaces'];

/** The paths of the fields that need mTLS (needsMtls). */
export function mtlsPaths(ap: Resource): string[] {
  const spec = isObj(ap.body.spec) ? ap.body.spec : {};
  const paths: string[] = [];
  arr(spec.rules).forEach((rule, i) => {
    if (!isObj(rule)) return;
    arr(rule.from).forEach((from, f) => {
      if (!isObj(from) || !isObj(from.source)) return;
      const source = from.source as Obj;
      for (const field of SOURCE_FIELDS) if (arr(source[field]).length > 0) paths.push(`spec/rules[${i}]/from[${f}]/source/${field}`);
    });
    arr(rule.when).forEach((cond, w) => {
      if (!isObj(cond)) return;
      for (const key of KEYS_WITH_MTLS) if (str(cond.key) === key) paths.push(`spec/rules[${i}]/when[${w}]`);
    });
  });
  return paths;
}

function isMtlsEnabledFor(ctx: KialiContext, labels: Readonly<Record<string, string>> | undefined, namespace: string): boolean {
  const peerAuthentications = ctx.list(KINDS.PeerAuthentication).filter((pa) => pa.namespace === namespace);
  const meshPeerAuthentications = ctx.list(KINDS.PeerAuthentication).filter((pa) => pa.namespace === ctx.rootNamespace);
  const destinationRules = ctx.destinationRules;
  const autoMtlsEnabled = ctx.enableAutoMtls;
  const nsStatus = new MtlsStatus({ peerAuthentications, destinationRules, autoMtlsEnabled, allowPermissive: true }).namespaceMtlsStatus(
    namespace,
    ctx.identityDomain,
  );
  const meshStatus = new MtlsStatus({
    peerAuthentications: meshPeerAuthentications,
    destinationRules,
    autoMtlsEnabled,
    allowPermissive: true,
  }).meshMtlsStatus();
  let nsLevel = new MtlsStatus({ autoMtlsEnabled }).overallMtlsStatus(nsStatus, meshStatus);
  if (nsLevel === MTLS_NOT_ENABLED && autoMtlsEnabled) nsLevel = MTLS_ENABLED;
  const nsEnabled = nsLevel === MTLS_ENABLED;
  if (labels === undefined) return nsEnabled;
  const workload = new MtlsStatus({
    autoMtlsEnabled,
    destinationRules,
    matchingLabels: labels,
    peerAuthentications,
    services: ctx.services,
  }).workloadMtlsStatus(namespace, ctx.identityDomain);
  if (workload === MTLS_ENABLED) return true;
  if (workload === MTLS_DISABLED) return false;
  return nsEnabled;
}

export const mtlsEnabledChecker: KialiChecker = {
  name: 'authorization.MtlsEnabledChecker',
  kinds: [KINDS.AuthorizationPolicy],
  codes: ['KIA0105'],
  run(ctx: KialiContext) {
    const results = new GroupResults();
    for (const ap of ctx.list(KINDS.AuthorizationPolicy)) {
      const spec = isObj(ap.body.spec) ? ap.body.spec : {};
      // No selector: an empty label set; a selector without matchLabels: Go's nil set.
      let labels: Readonly<Record<string, string>> | undefined = {};
      if (isObj(spec.selector))
        labels = spec.selector.matchLabels === undefined || spec.selector.matchLabels === null ? undefined : stringMap(spec.selector.matchLabels);
      if (isMtlsEnabledFor(ctx, labels, ap.namespace)) continue;
      for (const path of mtlsPaths(ap)) results.add(ap, buildCheck('authorizationpolicy.mtls.needstobeenabled', path), false);
    }
    return results.list();
  },
};
