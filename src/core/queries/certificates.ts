// The `certificates` view: certificate chains and Istio's verdicts for what the user
// pasted or dropped, for one resource (a Secret, or the Secrets a Gateway or
// DestinationRule names with credentialName), or for every Secret and ConfigMap of the
// workspace that holds certificate material. Pasted material stays in the worker: it is
// read here and nowhere else. Answered asynchronously (signatures go through WebCrypto).
import { KINDS } from '../document/kinds.ts';
import type { Resource } from '../document/types.ts';
import { gateway, destinationRule } from '../config/api/networking.ts';
import { firstPodSelectedBy } from '../config/workloads.ts';
import { decodeInputs, decodeKubeObject, type Decoded, type InputFile } from '../pki/input.ts';
import { inspectDecoded, type CredentialUser } from '../pki/inspect.ts';
import { argBag, optString, QueryError, type QueryState } from './common.ts';
import { parseResourceKey } from './resource.ts';
import type { CertificateSource, CertificatesResult } from './views.ts';

const CERT_KEYS = /\.(pem|crt|cert|key|crl)$|^(cert|key|cacert|crl|tls\.crt|tls\.key|ca\.crt|ca\.crl|tls\.ocsp-staple)$/;

function holdsCertificates(r: Resource): boolean {
  const data = r.body.data;
  const strData = r.body.stringData;
  const keys = [...(data && typeof data === 'object' ? Object.keys(data) : []), ...(strData && typeof strData === 'object' ? Object.keys(strData) : [])];
  if (r.labels['istio/multiCluster'] === 'true') return true;
  return keys.some((k) => CERT_KEYS.test(k));
}

function credentialSecret(credentialName: string, defaultNs: string): { namespace: string; name: string } | undefined {
  if (credentialName === '' || credentialName.startsWith('builtin://') || credentialName.startsWith('configmap://')) return undefined;
  const n = credentialName.replace(/^kubernetes(-gateway)?:\/\//, '');
  const slash = n.indexOf('/');
  return slash >= 0 ? { namespace: n.slice(0, slash), name: n.slice(slash + 1) } : { namespace: defaultNs, name: n };
}

/** Gateways and DestinationRules that name Secrets with credentialName. */
export function credentialUsers(state: QueryState): CredentialUser[] {
  const view = state.view;
  const out: CredentialUser[] = [];
  for (const gw of view.list(KINDS.Gateway)) {
    const spec = gateway(gw);
    const podNs = firstPodSelectedBy(view, spec.selector)?.namespace ?? gw.namespace;
    const servers = spec.servers
      .map((s, index) => ({ index, hosts: [...s.hosts], credentialName: s.tls?.credentialName ?? '', mode: s.tls?.mode ?? '' }))
      .filter((s) => s.credentialName !== '');
    if (servers.length > 0)
      out.push({ kind: 'Gateway', namespace: gw.namespace, name: gw.name, secretNamespace: podNs, servers, input: gw.source?.file, line: gw.source?.line });
  }
  for (const dr of view.list(KINDS.DestinationRule)) {
    const spec = destinationRule(dr);
    const names = [spec.trafficPolicy?.tls?.credentialName ?? '', ...spec.subsets.map((s) => s.trafficPolicy?.tls?.credentialName ?? '')].filter(
      (n) => n !== '',
    );
    if (names.length > 0)
      out.push({
        kind: 'DestinationRule',
        namespace: dr.namespace,
        name: dr.name,
        secretNamespace: dr.namespace,
        servers: names.map((credentialName, index) => ({ index, hosts: [spec.host], credentialName, mode: 'client' })),
        input: dr.source?.file,
        line: dr.source?.line,
      });
  }
  return out;
}

function merge(into: Decoded, more: Decoded): void {
  into.values.push(...more.values);
  into.objects.push(...more.objects);
  into.dumps.push(...more.dumps);
  into.ztunnel.push(...more.ztunnel);
  into.remotes.push(...more.remotes);
  into.problems.push(...more.problems);
  into.hints.push(...more.hints);
}

function readInputs(raw: unknown): InputFile[] {
  if (!Array.isArray(raw)) return [];
  const out: InputFile[] = [];
  for (const x of raw) {
    const b = argBag(x);
    const name = optString(b, 'name') ?? 'paste';
    const text = optString(b, 'text');
    const bytes = b.bytes instanceof Uint8Array ? b.bytes : undefined;
    if (text !== undefined || bytes) out.push({ name, text, bytes });
  }
  return out;
}

export async function answerCertificates(raw: unknown, state: QueryState): Promise<CertificatesResult> {
  const args = argBag(raw);
  const view = state.view;
  const inputs = readInputs(args.inputs);
  const at = optString(args, 'at');
  const now = at ? new Date(at) : new Date();
  if (Number.isNaN(now.getTime())) throw new QueryError(`The certificates query needs "at" as an RFC 3339 time, not "${at}".`);
  const profile = args.profile === 'production' ? 'production' : 'default';
  const aliasesArg = Array.isArray(args.aliases) ? args.aliases.filter((a): a is string => typeof a === 'string') : undefined;
  const users = credentialUsers(state);
  const decoded = decodeInputs(inputs);
  const sources: CertificateSource[] = [];
  const missing: CertificatesResult['missing'] = [];
  const seen = new Set<string>();
  const add = (r: Resource) => {
    if (seen.has(r.key)) return;
    seen.add(r.key);
    const body = {
      ...r.body,
      metadata: { ...(r.body.metadata && typeof r.body.metadata === 'object' ? (r.body.metadata as object) : {}), namespace: r.namespace, name: r.name },
    };
    merge(decoded, decodeKubeObject(r.source?.file ?? r.key, body, r.source?.line));
    sources.push({ key: r.key, kind: r.gvk.kind, namespace: r.namespace, name: r.name, file: r.source?.file, line: r.source?.line });
  };
  const addCredential = (user: CredentialUser) => {
    for (const s of user.servers) {
      const ref = credentialSecret(s.credentialName, user.secretNamespace);
      if (!ref) continue;
      const secret = view.find(KINDS.Secret, ref.namespace, ref.name);
      if (secret) add(secret);
      else missing.push({ user: `${user.kind} ${user.namespace}/${user.name}`, credentialName: s.credentialName, namespace: ref.namespace });
      const ca = view.find(KINDS.Secret, ref.namespace, `${ref.name}-cacert`);
      if (ca) add(ca);
    }
  };
  const resource = optString(args, 'resource');
  if (resource !== undefined) {
    const parsed = parseResourceKey(resource);
    const kind = parsed?.kindId;
    const r = parsed
      ? kind === 'core/Secret'
        ? view.find(KINDS.Secret, parsed.namespace, parsed.name)
        : kind === 'core/ConfigMap'
          ? view.find(KINDS.ConfigMap, parsed.namespace, parsed.name)
          : undefined
      : undefined;
    if (r) add(r);
    const user = users.find((u) => parsed && `${u.kind}` === parsed.kindId.split('/')[1] && u.namespace === parsed.namespace && u.name === parsed.name);
    if (user) addCredential(user);
  }
  if (args.workspace === true || (inputs.length === 0 && resource === undefined)) {
    for (const r of view.list(KINDS.Secret)) if (holdsCertificates(r)) add(r);
    for (const r of view.list(KINDS.ConfigMap)) if (r.name === 'istio-ca-root-cert' || holdsCertificates(r)) add(r);
    for (const u of users) addCredential(u);
  }
  const report = await inspectDecoded(decoded, {
    now,
    trustDomain: optString(args, 'trustDomain') ?? (view.meshConfig.trustDomain || 'cluster.local'),
    aliases: aliasesArg ?? view.meshConfig.trustDomainAliases ?? [],
    profile,
    credentialUsers: users,
  });
  return { report, sources, missing };
}
