// Istio's multi-cluster remote Secrets and bare kubeconfigs as src/core/pki/input.ts reads them.
// Expectations follow:
// - istio's remote Secret (istioctl create-remote-secret): label istio/multiCluster=true, one
//   kubeconfig per data key, the key being the cluster ID;
// - client-go's clientcmd (tools/clientcmd/validation.go Validate and ConfirmUsable): the
//   current-context must name a context (errContextNotFound; none at all: ErrNoContext), and the
//   context's cluster and user must be in the lists ("cluster %q was not found for context %q");
//   a cluster needs a server ("no server found for cluster"); client-certificate-data needs a key
//   ("client-key-data or client-key must be specified");
// - the kubeconfig's []byte fields (certificate-authority-data, client-certificate-data,
//   client-key-data) are base64, read with Go's encoding/base64 StdEncoding, which skips \r and \n
//   and nothing else (a space is an error);
// - the certs spec §1.1: at most four containers deep.
// Lines, keys and names are those of the texts built here; certificates come from pkiBuilder.ts.
import { describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded, type RemoteCluster, type Value } from '../../src/core/pki/input.ts';
import { leaf, root } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';
import { b64, secret } from './scenarioInputs.ts';

const ca = await root({ subject: 'CN=Remote Root' });
const client = await leaf(ca, { subject: 'CN=istio-reader' });
const caPem = pem(ca);
const clientPem = pem(client);
const clientKeyPem = await keyPem(client.keys);
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const MULTI_CLUSTER = { 'istio/multiCluster': 'true' };
const SECRET_PATH = 'Secret istio-system/istio-remote-secret-east';

type Entry = Record<string, unknown> | null;
interface Kubeconfig {
  clusters?: Entry[];
  users?: Entry[];
  contexts?: Entry[];
  current?: string;
}

/** A kubeconfig as JSON (which is YAML), as `istioctl create-remote-secret` writes one. */
function kubeconfig(k: Kubeconfig): string {
  const doc: Record<string, unknown> = { apiVersion: 'v1', kind: 'Config' };
  if (k.clusters) doc.clusters = k.clusters;
  if (k.users) doc.users = k.users;
  if (k.contexts) doc.contexts = k.contexts;
  if (k.current !== undefined) doc['current-context'] = k.current;
  return JSON.stringify(doc);
}

const cluster = (name: string, body: Record<string, unknown>) => ({ name, cluster: body });
const user = (name: string, body: Record<string, unknown>) => ({ name, user: body });
const context = (name: string, clusterName: string, userName: string) => ({ name, context: { cluster: clusterName, user: userName } });

/** One cluster, one token user, one context naming both: what client-go accepts. */
function valid(over: Partial<Kubeconfig> = {}): Kubeconfig {
  return {
    clusters: [cluster('east', { server: 'https://east.example:6443', 'certificate-authority-data': b64(caPem) })],
    users: [user('reader', { token: 't0ken' })],
    contexts: [context('east', 'east', 'reader')],
    current: 'east',
    ...over,
  };
}

/** A remote Secret with one kubeconfig per key (in `data`, base64 of the texts). */
const remoteSecret = (data: Record<string, string>): Decoded =>
  decodeInputs([{ name: 'remote.yaml', text: secret('istio-remote-secret-east', data, { labels: MULTI_CLUSTER }) }]);

/** The one remote cluster of a decode (the test fails when there are more or none). */
function onlyRemote(d: Decoded): RemoteCluster {
  expect(d.remotes).toHaveLength(1);
  return d.remotes[0]!;
}

const certHexes = (v: Value | undefined): string[] => (v?.artefacts ?? []).flatMap((a) => (a.kind === 'certificate' ? [hexOf(a.cert.der)] : []));

/** The remote of a one-key remote Secret holding `k`, and the decode. */
function remoteOf(k: Kubeconfig): { rc: RemoteCluster; d: Decoded } {
  const d = remoteSecret({ east: kubeconfig(k) });
  return { rc: onlyRemote(d), d };
}

/** Every problem is an error about the data key `east` (and none says the input could not be read). */
function onlyKeyErrors(d: Decoded): void {
  expect(d.problems.length).toBeGreaterThan(0);
  for (const p of d.problems) {
    expect(p.severity).toBe('error');
    expect(p.origin.key).toBe('east');
    expect(p.message).toContain('east');
  }
}

// Istio's multicluster secret controller (pkg/kube/multicluster/secretcontroller.go) watches
// Secrets labelled istio/multiCluster=true; a ConfigMap with that label is no remote cluster.
describe('the multiCluster label on a ConfigMap', () => {
  it('is no remote secret: its kubeconfig is read as a bare one, not as the cluster named by its key', () => {
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: istio-remote-secret-east',
      '  namespace: istio-system',
      '  labels:',
      '    istio/multiCluster: "true"',
      'data:',
      `  east: ${JSON.stringify(kubeconfig(valid()))}`,
      '',
    ].join('\n');
    const rc = onlyRemote(decodeInputs([{ name: 'cm.yaml', text }]));
    expect(rc.clusterId).not.toBe('east');
    expect(rc.secret.kind).toBe('Config');
    // The same data in a Secret is the remote cluster `east`.
    expect(onlyRemote(remoteSecret({ east: kubeconfig(valid()) })).clusterId).toBe('east');
  });
});

describe('remote Secret keys that hold no kubeconfig', () => {
  it('a value that is not YAML: a remote with no server or auth, an error on the key', () => {
    const d = remoteSecret({ east: 'clusters: [unclosed' });
    const rc = onlyRemote(d);
    expect(rc).toMatchObject({ clusterId: 'east', server: '', auth: '' });
    expect(rc.error).toBeTruthy();
    expect(rc.secret).toEqual({ kind: 'Secret', namespace: 'istio-system', name: 'istio-remote-secret-east' });
    expect(rc.origin.path).toEqual([SECRET_PATH, 'east']);
    onlyKeyErrors(d);
    expect(d.problems).toHaveLength(1);
  });

  it('YAML that is not a mapping (a list): the same', () => {
    const d = remoteSecret({ east: '- just\n- a list\n' });
    const rc = onlyRemote(d);
    expect(rc).toMatchObject({ clusterId: 'east', server: '', auth: '' });
    expect(rc.error).toBeTruthy();
    onlyKeyErrors(d);
    expect(d.problems).toHaveLength(1);
  });
});

describe('a bare kubeconfig (kind: Config)', () => {
  it('is one cluster named after the input, with no Secret around it', () => {
    const d = decodeInputs([{ name: 'admin.conf', text: kubeconfig(valid()) }]);
    const rc = onlyRemote(d);
    expect(rc.secret).toEqual({ kind: 'Config', namespace: '', name: 'admin.conf' });
    expect(rc.server).toBe('https://east.example:6443');
    expect(rc.error).toBeUndefined();
    expect(certHexes(rc.ca)).toEqual([hexOf(ca.der)]);
    expect(d.problems.map((p) => p.severity)).toEqual(['info']);
  });
});

describe('a bare kubeconfig without kind (clientcmd.Load defaults to v1 Config)', () => {
  /** The kubeconfig's YAML with its apiVersion and kind lines as given. */
  const withHead = (head: Record<string, string>) => {
    const { apiVersion: _a, kind: _k, ...rest } = JSON.parse(kubeconfig(valid())) as Record<string, unknown>;
    return JSON.stringify({ ...head, ...rest });
  };

  it('is read as kind: Config is, with or without apiVersion v1', () => {
    const heads: Record<string, string>[] = [{}, { apiVersion: 'v1' }];
    for (const head of heads) {
      const d = decodeInputs([{ name: 'config', text: withHead(head) }]);
      const rc = onlyRemote(d);
      expect(rc.secret).toEqual({ kind: 'Config', namespace: '', name: 'config' });
      expect(rc.server).toBe('https://east.example:6443');
      expect(certHexes(rc.ca)).toEqual([hexOf(ca.der)]);
    }
  });

  it('not with another kind or apiVersion (client-go refuses those), nor a clusters list without cluster entries', () => {
    for (const text of [
      withHead({ kind: 'Settings' }),
      withHead({ apiVersion: 'v2' }),
      JSON.stringify({ clusters: [{ name: 'outbound|80||a.example', type: 'EDS' }] }),
    ]) {
      const d = decodeInputs([{ name: 'config', text }]);
      expect(d.remotes).toEqual([]);
    }
  });
});

describe("the current context's cluster and user (client-go clientcmd)", () => {
  it('the context current-context names is used, not the first one', () => {
    const k: Kubeconfig = {
      clusters: [
        cluster('west', { server: 'https://west.example:6443' }),
        cluster('east', { server: 'https://east.example:6443', 'certificate-authority-data': b64(caPem) }),
      ],
      users: [user('west-reader', { token: 'w' }), user('east-reader', { 'client-certificate-data': b64(clientPem), 'client-key-data': b64(clientKeyPem) })],
      contexts: [context('west', 'west', 'west-reader'), context('east', 'east', 'east-reader')],
      current: 'east',
    };
    const { rc, d } = remoteOf(k);
    expect(rc.error).toBeUndefined();
    expect(d.problems).toEqual([]);
    expect(rc.server).toBe('https://east.example:6443');
    expect(rc.auth).toBe('client certificate');
    expect(certHexes(rc.ca)).toEqual([hexOf(ca.der)]);
    expect(certHexes(rc.clientCert)).toEqual([hexOf(client.der)]);
  });

  it('null entries in the lists (client-go reads them as unnamed entries) are passed over', () => {
    const { rc, d } = remoteOf(
      valid({ contexts: [null, context('east', 'east', 'reader')], clusters: [null, ...valid().clusters!], users: [null, ...valid().users!] }),
    );
    expect(rc.error).toBeUndefined();
    expect(d.problems).toEqual([]);
    expect(rc.server).toBe('https://east.example:6443');
    expect(rc.auth).toBe('bearer token');
  });

  it('a current-context that names no context is an error naming it, even with only one context (errContextNotFound)', () => {
    const { rc, d } = remoteOf(valid({ current: 'north' }));
    expect(rc.error).toContain('north');
    onlyKeyErrors(d);
  });

  it('no current-context is an error naming the field (ErrNoContext)', () => {
    const { rc, d } = remoteOf(valid({ current: undefined }));
    expect(rc.error).toContain('current-context');
    onlyKeyErrors(d);
  });

  it('a context whose cluster is not in the list is an error naming that cluster, even with only one cluster', () => {
    const { rc, d } = remoteOf(valid({ contexts: [context('east', 'south', 'reader')] }));
    expect(rc.error).toContain('south');
    onlyKeyErrors(d);
  });

  it('a context whose user is not in the list is an error naming that user, even with only one user', () => {
    const { rc, d } = remoteOf(valid({ contexts: [context('east', 'east', 'nobody')] }));
    expect(rc.error).toContain('nobody');
    onlyKeyErrors(d);
  });

  it.each([
    ['contexts', { contexts: undefined, current: undefined }, 'current-context'],
    ['clusters', { clusters: undefined }, 'cluster'],
    ['users', { users: undefined }, 'user'],
  ] as const)('no %s list at all: an error, and nothing else goes wrong', (_, over, field) => {
    const { rc, d } = remoteOf(valid(over));
    expect(rc.error).toContain(field);
    onlyKeyErrors(d);
    expect(d.problems).toHaveLength(1);
  });

  it('no cluster: no server either', () => {
    const { rc } = remoteOf(valid({ clusters: [] }));
    expect(rc.server).toBe('');
    expect(rc.ca).toBeUndefined();
  });

  it('a cluster without a server is an error naming the field ("no server found for cluster")', () => {
    const { rc, d } = remoteOf(valid({ clusters: [cluster('east', { 'certificate-authority-data': b64(caPem) })] }));
    expect(rc.server).toBe('');
    expect(rc.error).toContain('server');
    onlyKeyErrors(d);
  });

  it('two broken kubeconfigs in one Secret: an error for each, naming its own key', () => {
    const d = remoteSecret({ east: kubeconfig(valid({ current: 'x' })), west: kubeconfig(valid({ current: 'y' })) });
    expect(d.remotes.map((r) => r.clusterId)).toEqual(['east', 'west']);
    expect(d.problems.map((p) => [p.severity, p.origin.key])).toEqual([
      ['error', 'east'],
      ['error', 'west'],
    ]);
    expect(d.problems[1]!.message).toContain('west');
    expect(d.problems[1]!.message).not.toContain('east');
  });
});

describe('certificate data in the kubeconfig', () => {
  it('the CA, client certificate and key sit under the key, each under its field, and are read', () => {
    const { rc } = remoteOf(valid({ users: [user('reader', { 'client-certificate-data': b64(clientPem), 'client-key-data': b64(clientKeyPem) })] }));
    expect(rc.origin).toMatchObject({ input: 'remote.yaml', path: [SECRET_PATH, 'east'], key: 'east' });
    expect(rc.ca?.origin.path).toEqual([SECRET_PATH, 'east', 'certificate-authority-data']);
    expect(rc.clientCert?.origin.path).toEqual([SECRET_PATH, 'east', 'client-certificate-data']);
    expect(rc.clientKey?.origin.path).toEqual([SECRET_PATH, 'east', 'client-key-data']);
    expect(rc.ca?.encoding).toBe('pem');
    expect(certHexes(rc.ca)).toEqual([hexOf(ca.der)]);
    expect(certHexes(rc.clientCert)).toEqual([hexOf(client.der)]);
    expect(rc.clientKey?.artefacts.map((a) => a.kind)).toEqual(['private-key']);
    expect(rc.error).toBeUndefined();
  });

  it('base64 broken into lines is read (Go’s base64 decoder skips newlines)', () => {
    const lines = (s: string) => b64(s).replace(/(.{76})/g, '$1\n');
    expect(lines(caPem)).toContain('\n');
    const { rc, d } = remoteOf(
      valid({
        clusters: [cluster('east', { server: 'https://east.example:6443', 'certificate-authority-data': lines(caPem) })],
        users: [user('reader', { 'client-certificate-data': lines(clientPem), 'client-key-data': lines(clientKeyPem) })],
      }),
    );
    expect(d.problems).toEqual([]);
    expect(certHexes(rc.ca)).toEqual([hexOf(ca.der)]);
    expect(certHexes(rc.clientCert)).toEqual([hexOf(client.der)]);
    expect(rc.clientKey?.artefacts.map((a) => a.kind)).toEqual(['private-key']);
  });

  it.each([
    ['certificate-authority-data', (bad: string) => valid({ clusters: [cluster('east', { server: 'https://e:6443', 'certificate-authority-data': bad })] })],
    ['client-certificate-data', (bad: string) => valid({ users: [user('reader', { 'client-certificate-data': bad, 'client-key-data': b64(clientKeyPem) })] })],
    ['client-key-data', (bad: string) => valid({ users: [user('reader', { 'client-certificate-data': b64(clientPem), 'client-key-data': bad })] })],
  ] as const)('%s that is not base64 is an error naming the field, and nothing is read from it', (field, build) => {
    // A space is not skipped: a plain YAML scalar folded over lines reads as words joined by
    // spaces, which encoding/json's base64 (StdEncoding) refuses, so kubectl and istiod do too.
    const spaced = b64(caPem).replace(/(.{76})/g, '$1 ');
    expect(remoteOf(build(spaced)).rc.error).toContain(field);
    const { rc, d } = remoteOf(build('not*base64'));
    expect(rc.error).toContain(field);
    onlyKeyErrors(d);
    expect(d.problems).toHaveLength(1);
    const value = { 'certificate-authority-data': rc.ca, 'client-certificate-data': rc.clientCert, 'client-key-data': rc.clientKey }[field];
    expect(value).toBeUndefined();
  });

  it('client-certificate-data without client-key-data is an error naming the key field', () => {
    const { rc, d } = remoteOf(valid({ users: [user('reader', { 'client-certificate-data': b64(clientPem) })] }));
    expect(rc.auth).toBe('client certificate');
    expect(certHexes(rc.clientCert)).toEqual([hexOf(client.der)]);
    expect(rc.clientKey).toBeUndefined();
    expect(rc.error).toContain('client-key-data');
    onlyKeyErrors(d);
  });

  /** `s` base64-encoded `times` times. */
  const base64Times = (s: string, times: number): string => Array.from({ length: times }).reduce<string>((acc) => b64(acc), s);

  it.each([
    [
      'certificate-authority-data',
      (inner: string) => valid({ clusters: [cluster('east', { server: 'https://e:6443', 'certificate-authority-data': inner })] }),
      'ca',
    ],
    [
      'client-certificate-data',
      (inner: string) => valid({ users: [user('reader', { 'client-certificate-data': inner, 'client-key-data': b64(clientKeyPem) })] }),
      'clientCert',
    ],
    [
      'client-key-data',
      (inner: string) => valid({ users: [user('reader', { 'client-certificate-data': b64(clientPem), 'client-key-data': inner })] }),
      'clientKey',
    ],
  ] as const)('%s holding a PEM under five more base64 layers is more than four containers deep: not read, a warning (spec §1.1)', (_, build, field) => {
    const pemText = field === 'clientKey' ? clientKeyPem : caPem;
    const { rc, d } = remoteOf(build(base64Times(pemText, 6)));
    const values = d.values.filter((v) => v.origin.path.length > 3);
    expect(values.flatMap((v) => v.artefacts)).toEqual([]);
    expect(d.problems.map((p) => p.severity)).toEqual(['warning']);
    expect(rc[field]).toBeUndefined();
  });
});

describe('how the remote cluster authenticates (the user entry)', () => {
  const withUser = (body: Record<string, unknown>, clusterBody: Record<string, unknown> = { server: 'https://east.example:6443' }) =>
    remoteOf(valid({ users: [user('reader', body)], clusters: [cluster('east', clusterBody)] })).rc;

  it('a token is a bearer token', () => {
    expect(withUser({ token: 't0ken' }).auth).toBe('bearer token');
  });

  it('an exec plugin names its command', () => {
    const auth = withUser({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'gke-gcloud-auth-plugin' } }).auth;
    expect(auth).toContain('exec');
    expect(auth).toContain('gke-gcloud-auth-plugin');
  });

  it('an auth provider names the provider', () => {
    const auth = withUser({ 'auth-provider': { name: 'oidc' } }).auth;
    expect(auth).toContain('auth provider');
    expect(auth).toContain('oidc');
  });

  it('a username is basic auth', () => {
    expect(withUser({ username: 'admin', password: 'p' }).auth).toBe('basic auth');
  });

  it('no credentials at all is none, and no error (client-go allows an anonymous user)', () => {
    const rc = withUser({});
    expect(rc.auth).toBe('none');
    expect(rc.error).toBeUndefined();
  });

  it('insecure-skip-tls-verify without a CA and without credentials is named', () => {
    expect(withUser({}, { server: 'https://east.example:6443', 'insecure-skip-tls-verify': true }).auth).toBe('insecure-skip-tls-verify');
    expect(withUser({}, { server: 'https://east.example:6443', 'insecure-skip-tls-verify': false }).auth).toBe('none');
  });
});
