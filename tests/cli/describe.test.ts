// `describe pod|service` and `authz check` through the CLI. The expected Bookinfo text is
// derived by hand from istioctl/pkg/describe/describe.go against public/samples/bookinfo/
// (not from our output); the comments say which rule gives each line.
import { describe, expect, it } from 'vitest';
import { cli as run, REPO } from './helpers.ts';

const cli = (args: string[], opts: { stdin?: string } = {}) => run(args, { ...opts, cwd: REPO });

const BOOKINFO = 'public/samples/bookinfo/';

describe('describe pod on Bookinfo', () => {
  it('productpage: its Service, DestinationRule, mTLS mode and ingress exposure', async () => {
    const r = await cli(['describe', 'pod', 'productpage-v1-7f9c8d6b5-x2k4q.bookinfo', BOOKINFO]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        // printPod; kname adds `.bookinfo` (describe namespace is `default`); the status
        // annotation carries no revision (GetRevisionFromPodAnnotation gives ''); the container
        // port has no protocol, the API server's TCP, so no `/TCP`; app and version labels: no suggestions.
        'Pod: productpage-v1-7f9c8d6b5-x2k4q.bookinfo',
        '   Pod Revision: ',
        '   Pod Ports: 9080 (productpage)',
        '--------------------',
        // printService: port `http` → HTTP, numeric targetPort 9080.
        'Service: productpage.bookinfo',
        '   Port: http 9080/HTTP targets pod port 9080',
        // The outbound cluster of productpage:9080 carries DestinationRule productpage; the pod has version=v1.
        'DestinationRule: productpage.bookinfo for "productpage"',
        '   Matching subsets: v1',
        '   No Traffic Policy',
        // VirtualService productpage binds only bookinfo-gateway: the sidecar's route for
        // productpage is the default route, without istio metadata, so no VirtualService here.
        '--------------------',
        // PeerAuthentication default.bookinfo (no selector) is STRICT.
        'Effective PeerAuthentication:',
        '   Workload mTLS mode: STRICT',
        'Applied PeerAuthentication:',
        '   default.bookinfo',
        // The assumed ingress gateway (istio=ingressgateway) routes http.8080 to
        // outbound|9080||productpage.bookinfo from VirtualService productpage, whose Gateway
        // selects it; its Service has an `http2` port 80 and no load balancer IP or host IP.
        '--------------------',
        'Exposed on Ingress Gateway http://unknown',
        'VirtualService: productpage.bookinfo',
        // One http route, destination productpage without subset or weight: only its matches.
        '   Match: /productpage, Match: /static*, Match: /api/v1/products*',
        '',
      ].join('\n'),
    );
  });

  it('reviews-v1 by its Deployment name, in -n bookinfo: the route to its subset with its weight', async () => {
    const r = await cli(['x', 'describe', 'pod', 'reviews-v1', '-n', 'bookinfo', BOOKINFO]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Pod: reviews-v1-6d4c9b8f7-q7w2e',
        '   Pod Revision: ',
        '   Pod Ports: 9080 (reviews)',
        '--------------------',
        'Service: reviews',
        '   Port: http 9080/HTTP targets pod port 9080',
        // Subsets v1, v2, v3: only v1 selects version=v1.
        'DestinationRule: reviews for "reviews"',
        '   Matching subsets: v1',
        '      (Non-matching subsets v2,v3)',
        '   No Traffic Policy',
        // The route to subset v1 (weight 75) reaches the pod; v2 is a non-matching subset, a
        // note istioctl drops once a destination of the route matches; no matches, no fault.
        'VirtualService: reviews',
        '   Route to host "reviews" subset "v1" with weight 75%',
        '--------------------',
        'Effective PeerAuthentication:',
        '   Workload mTLS mode: STRICT',
        'Applied PeerAuthentication:',
        '   default.bookinfo',
        // The gateway's routes reach only productpage: nothing for reviews.
        '',
      ].join('\n'),
    );
  });

  it('an unmeshed pod: the warning, then the failure istioctl has reading its sidecar', async () => {
    const r = await cli(['describe', 'pod', 'productpage-v1.bookinfo', 'public/samples/bookinfo/bookinfo.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Pod: productpage-v1-[a-z0-9]+-[a-z0-9]{5}\.bookinfo\n/);
    expect(r.stdout).toMatch(/WARNING: productpage-v1-\S+\.bookinfo is not part of mesh; no Istio sidecar\n--------------------\n$/);
    expect(r.stderr).toContain('failed to execute command on sidecar');
  });

  it('a pod written without an istio-proxy container has no Envoy to read, even where injection is enabled', async () => {
    // many-mistakes' cart pod asks for injection (sidecar.istio.io/inject: "true") but, as
    // written, runs no istio-proxy container: istioctl's isMeshed is false (the warning), and
    // reading its Envoy's config_dump fails, so describe stops after the first separator
    // (istioctl, through describe-oracle, prints exactly these lines and exits 1).
    const r = await cli(['describe', 'pod', 'cart-7d9f8c6b5-abcde.shop', 'public/samples/many-mistakes/']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'Pod: cart-7d9f8c6b5-abcde.shop',
        '   Pod Revision: ',
        '   Pod does not expose ports',
        'WARNING: cart-7d9f8c6b5-abcde.shop is not part of mesh; no Istio sidecar',
        '--------------------',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toMatch(/^Error: failed to execute command on sidecar: /);
  });

  it("an unknown pod: istioctl's error and the pods there are", async () => {
    const r = await cli(['describe', 'pod', 'nope.bookinfo', BOOKINFO]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pods "nope" not found');
    expect(r.stderr).toContain('reviews-v1-6d4c9b8f7-q7w2e.bookinfo');
  });

  it('-o json carries the facts with their sources', async () => {
    const r = await cli(['describe', 'pod', 'reviews-v1.bookinfo', '-o', 'json', BOOKINFO]);
    const d = JSON.parse(r.stdout);
    expect(d.services[0].byPort[0].destinationRule.subsets[0]).toMatchObject({
      name: 'v1',
      matches: true,
      source: { kind: 'DestinationRule', fieldPath: 'spec.subsets[0]' },
    });
    expect(d.pod.meshMode).toBe('sidecar');
  });
});

describe('describe service', () => {
  it("a missing Service: istioctl's not-found error", async () => {
    const r = await cli(['describe', 'svc', 'not-a-service', BOOKINFO]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('services "not-a-service" not found');
  });
});

describe('authz check', () => {
  it('a missing dump file is an error naming it', async () => {
    const r = await cli(['x', 'authz', 'check', '-f', 'no-such-dump.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('failed to get config dump from file no-such-dump.json');
  });

  it("a pod's generated config: a DENY policy selecting it is listed with its rule count", async () => {
    const policy = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: deny-delete, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  action: DENY
  rules:
    - to: [{operation: {methods: [DELETE]}}]
    - to: [{operation: {methods: [PUT]}}]
`;
    const r = await cli(['authz', 'check', 'reviews-v1.bookinfo', BOOKINFO, '-'], { stdin: policy });
    expect(r.code).toBe(0);
    // istioctl/pkg/authz/listener.go: one row per policy, RULES = distinct rule indexes.
    expect(r.stdout).toBe('ACTION   AuthorizationPolicy    RULES\nDENY     deny-delete.bookinfo   2\n');
  });
});
