import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { KINDS } from '../../src/core/document/kinds.ts';

async function assumptions(text: string): Promise<string[]> {
  const w = new WorkspaceAnalyzer();
  w.update([{ path: 'a.yaml', text }], []);
  const r = await w.run(defaultAnalysisSettings());
  if (r === 'canceled') throw new Error('canceled');
  return r.assumptions;
}

const gateway =
  'apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: g\n  namespace: a\nspec:\n  selector: {istio: ingressgateway}\n  servers:\n  - port: {number: 443, name: https, protocol: HTTPS}\n    hosts: ["*"]\n    tls: {mode: SIMPLE, credentialName: c}\n';

describe('assumed inputs', () => {
  it('says which analyzer inputs are missing', async () => {
    const notes = await assumptions(gateway);
    expect(notes.some((n) => n.startsWith('Mesh config: Istio defaults'))).toBe(true);
    expect(notes.some((n) => n.startsWith('Secrets: none'))).toBe(true);
    expect(notes.some((n) => n.startsWith('Namespaces: none'))).toBe(true);
    expect(notes.some((n) => n.startsWith('Webhooks: none'))).toBe(true);
  });

  it('does not mention inputs that are present', async () => {
    const notes = await assumptions(
      `${gateway}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: c\n  namespace: a\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n`,
    );
    expect(notes.some((n) => n.startsWith('Secrets:'))).toBe(false);
    expect(notes.some((n) => n.startsWith('Namespaces:'))).toBe(false);
  });

  it('does not ask for Secrets when no Gateway names a credential', async () => {
    const notes = await assumptions(gateway.replace('credentialName: c', 'credentialName: ""'));
    expect(notes.some((n) => n.startsWith('Secrets:'))).toBe(false);
  });
});

describe('the assumed ingress gateway', () => {
  // Istio's samples/tcp-echo gateway: port 31400 is on istioctl's placeholder Service
  // (pkg/config/analysis/local/defaults.go: http2 80, https 443, tcp 31400, tls 15443), not on
  // the default ingress chart's (15021, 80 → 8080, 443 → 8443). IngressGatewayPortAnalyzer
  // (pkg/config/analysis/analyzers/gateway/gateway.go) accepts a server port that is a target
  // port or a port of the Service.
  // With the sample's Service and Deployment, so that the analyzer runs (it is skipped when the
  // files hold no Service or Pod: the assumed gateway never counts as one).
  const echoApp =
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: tcp-echo\n  namespace: default\nspec:\n  ports:\n  - {name: tcp, port: 9000}\n  selector: {app: tcp-echo}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: tcp-echo\n  namespace: default\nspec:\n  selector:\n    matchLabels: {app: tcp-echo}\n  template:\n    metadata:\n      labels: {app: tcp-echo}\n    spec:\n      containers:\n      - {name: tcp-echo, image: docker.io/istio/tcp-echo-server:1.3}\n';
  const tcpEcho =
    'apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: tcp-echo-gateway\n  namespace: default\nspec:\n  selector:\n    istio: ingressgateway\n  servers:\n  - port:\n      number: 31400\n      name: tcp\n      protocol: TCP\n    hosts:\n    - "*"\n';

  it("accepts both the chart's and istioctl's ports: a Gateway on 31400 or 8080 with no gateway Service in the files gets no IST0162, one on 9000 does", async () => {
    const w = new WorkspaceAnalyzer();
    w.update(
      [
        { path: 'gw.yaml', text: tcpEcho },
        { path: 'app.yaml', text: echoApp },
      ],
      [],
    );
    const r = await w.run(defaultAnalysisSettings());
    if (r === 'canceled') throw new Error('canceled');
    expect(r.executed).toContain('gateway.IngressGatewayPortAnalyzer');
    expect(r.diagnostics.filter((d) => d.code === 'IST0162')).toEqual([]);
    const svc = r.resources.find((x) => x.synthetic === 'placeholder' && x.gvk.kind === 'Service');
    expect((svc?.body.spec as { ports: Array<{ port: number; targetPort: number }> }).ports.map((p) => `${p.port}:${p.targetPort}`)).toEqual([
      '15021:15021',
      '80:8080',
      '443:8443',
      '31400:31400',
      '15443:15443',
    ]);
    expect(r.assumptions.find((n) => n.startsWith('Placeholder ingress gateway'))).toContain('tcp 31400, tls 15443');
    const ist0162 = async (port: number) => {
      const w2 = new WorkspaceAnalyzer();
      w2.update(
        [
          { path: 'gw.yaml', text: tcpEcho.replace('number: 31400', `number: ${port}`) },
          { path: 'app.yaml', text: echoApp },
        ],
        [],
      );
      const r2 = await w2.run(defaultAnalysisSettings());
      if (r2 === 'canceled') throw new Error('canceled');
      return r2.diagnostics.filter((d) => d.code === 'IST0162').map((d) => d.origin);
    };
    // Bookinfo's gateway listens on 8080, the chart's target port behind 80.
    expect(await ist0162(8080)).toEqual([]);
    expect(await ist0162(15443)).toEqual([]);
    expect(await ist0162(80)).toEqual([]);
    // A port neither gateway offers is still reported.
    expect(await ist0162(9000)).toEqual(['Gateway default/tcp-echo-gateway']);
  });

  it("keeps the chart's gateway for the generated config (queries): ports 15021, 80 → 8080, 443 → 8443", async () => {
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'gw.yaml', text: tcpEcho }], []);
    await w.run(defaultAnalysisSettings());
    const view = w.analyzedState()!.view;
    const svc = view.find(KINDS.Service, 'istio-system', 'istio-ingressgateway');
    expect((svc?.body.spec as { ports: Array<{ port: number; targetPort: number }> }).ports.map((p) => `${p.port}:${p.targetPort}`)).toEqual([
      '15021:15021',
      '80:8080',
      '443:8443',
    ]);
    expect(view.list(KINDS.Pod).find((p) => p.synthetic === 'placeholder')?.labels).toEqual({ app: 'istio-ingressgateway', istio: 'ingressgateway' });
  });
});
