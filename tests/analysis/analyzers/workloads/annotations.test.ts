import { describe, expect, it } from 'vitest';
import { k8sAnnotationsAnalyzer } from '../../../../src/core/analysis/analyzers/annotations/k8s.ts';
import { alphaAnnotationsAnalyzer } from '../../../../src/core/analysis/analyzers/maturity/alpha.ts';
import { annotationValueError } from '../../../../src/core/analysis/analyzers/annotations/validation.ts';
import { isIstioAnnotation, lookupAnnotation } from '../../../../src/core/config/annotations.ts';
import { ALL_ANALYZERS, OPTIONAL_ANALYZERS } from '../../../../src/core/analysis/analyzers/index.ts';
import { analyze, docs, pairs } from '../helpers.ts';

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

const pod = (name: string, annotations: string, extra = '') => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: shop
  annotations:
${annotations}
spec:
  containers:
  - name: app
    image: shop/app
${extra}`;

describe('annotation catalog', () => {
  it('knows names, kinds, statuses and deprecation', () => {
    expect(lookupAnnotation('proxy.istio.io/config')).toMatchObject({ status: 'Beta', resources: ['Pod'], deprecated: false });
    expect(lookupAnnotation('sidecar.istio.io/inject')).toMatchObject({ deprecated: true });
    expect(lookupAnnotation('galley.istio.io/analyze-suppress')?.resources).toEqual(['Any']);
    expect(lookupAnnotation('networking.istio.io/exportThree')).toBeUndefined();
  });

  it('treats *istio.io prefixes and kubernetes.io/ingress.class as Istio annotations', () => {
    expect(isIstioAnnotation('readiness.status.sidecar.istio.io/periodSeconds')).toBe(true);
    expect(isIstioAnnotation('kubernetes.io/ingress.class')).toBe(true);
    expect(isIstioAnnotation('helm.sh/hook')).toBe(false);
    expect(isIstioAnnotation('istio.io.example.com/x')).toBe(false);
  });

  it('validates values the way the injector does', () => {
    expect(annotationValueError('readiness.status.sidecar.istio.io/periodSeconds', '10')).toBeUndefined();
    expect(annotationValueError('readiness.status.sidecar.istio.io/periodSeconds', '-1')).toBe('strconv.ParseUint: parsing "-1": invalid syntax');
    expect(annotationValueError('readiness.status.sidecar.istio.io/failureThreshold', '4294967296')).toBe(
      'strconv.ParseUint: parsing "4294967296": value out of range',
    );
    expect(annotationValueError('sidecar.istio.io/interceptionMode', 'TPROXY')).toBeUndefined();
    expect(annotationValueError('sidecar.istio.io/interceptionMode', 'tproxy')).toBe('interceptionMode invalid, use REDIRECT,TPROXY,NONE: tproxy');
    expect(annotationValueError('traffic.sidecar.istio.io/includeOutboundIPRanges', '*')).toBeUndefined();
    expect(annotationValueError('traffic.sidecar.istio.io/includeOutboundIPRanges', '10.0.0.0/8,fd00::/8')).toBeUndefined();
    expect(annotationValueError('traffic.sidecar.istio.io/excludeOutboundIPRanges', '10.0.0.1')).toBe(
      "excludeIPRanges invalid: failed parsing cidr '10.0.0.1': netip.ParsePrefix(\"10.0.0.1\"): no '/'",
    );
    expect(annotationValueError('traffic.sidecar.istio.io/excludeInboundPorts', '15020, 8080')).toBeUndefined();
    expect(annotationValueError('traffic.sidecar.istio.io/excludeOutboundPorts', '80,http')).toBe(
      "excludeOutboundPorts invalid: failed parsing port 'http': failed parsing port 'http': strconv.ParseUint: parsing \"http\": invalid syntax",
    );
    expect(annotationValueError('status.sidecar.istio.io/port', '70000')).toBe(
      'excludeInboundPorts invalid: failed parsing port \'70000\': strconv.ParseUint: parsing "70000": value out of range',
    );
    expect(annotationValueError('prometheus.istio.io/merge-metrics', 'yes')).toBe('strconv.ParseBool: parsing "yes": invalid syntax');
    // Ports are trimmed as Go's TrimSpace trims: NEL is space, a byte-order mark is not.
    expect(annotationValueError('traffic.sidecar.istio.io/excludeInboundPorts', '\u00858080')).toBeUndefined();
    expect(annotationValueError('traffic.sidecar.istio.io/excludeInboundPorts', '\ufeff8080')).toBe(
      // %s prints the mark as it is; strconv's %q-style quoting escapes it (not printable in Go).
      "excludeInboundPorts invalid: failed parsing port '\ufeff8080': failed parsing port '\ufeff8080': strconv.ParseUint: parsing \"\\ufeff8080\": invalid syntax",
    );
    // Not every annotation has a value check.
    expect(annotationValueError('sidecar.istio.io/logLevel', 'anything')).toBeUndefined();
  });

  it('checks the proxy resource annotations as Kubernetes quantities', () => {
    const format = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    for (const ok of [
      '100m',
      '1.5',
      '2Gi',
      '512Mi',
      '1e3',
      '1E-2',
      '0.5Ki',
      '+7k',
      '-3',
      '000',
      '.5',
      '1.',
      '0',
      'Ki',
      'm',
      '+',
      '1.0000000001',
      '12345678901234567890',
      '3E',
    ]) {
      expect(annotationValueError('sidecar.istio.io/proxyCPU', ok), ok).toBeUndefined();
    }
    expect(annotationValueError('sidecar.istio.io/proxyMemory', '')).toBe(format);
    expect(annotationValueError('sidecar.istio.io/proxyMemory', '1GB')).toBe(format);
    expect(annotationValueError('sidecar.istio.io/proxyMemory', '512 Mi')).toBe(format);
    expect(annotationValueError('sidecar.istio.io/proxyMemory', 'lots')).toBe(format);
    expect(annotationValueError('sidecar.istio.io/proxyMemoryLimit', '1mm')).toBe("unable to parse quantity's suffix");
    expect(annotationValueError('sidecar.istio.io/proxyMemoryLimit', '2e')).toBe("unable to parse quantity's suffix");
    expect(annotationValueError('sidecar.istio.io/proxyMemoryLimit', '2ee5')).toBe("unable to parse quantity's suffix");
    expect(annotationValueError('sidecar.istio.io/proxyMemoryLimit', '1e99999999999999999999')).toBe("unable to parse quantity's suffix");
    // No digit at all, on the exact path (a scale below nano): the number part cannot be read.
    expect(annotationValueError('sidecar.istio.io/proxyCPULimit', '.e-12')).toBe('unable to parse numeric part of quantity');
    expect(annotationValueError('sidecar.istio.io/proxyCPULimit', '.n')).toBeUndefined();
    expect(annotationValueError('sidecar.istio.io/proxyCPULimit', '250m\n')).toBe('value contains control characters');
    expect(annotationValueError('sidecar.istio.io/proxyCPULimit', '250m\u0085')).toBe('value contains control characters');
  });

  it('checks interface-name lists as the injector does before writing iptables rules', () => {
    for (const key of ['traffic.sidecar.istio.io/excludeInterfaces', 'traffic.sidecar.istio.io/kubevirtInterfaces', 'istio.io/reroute-virtual-interfaces']) {
      expect(annotationValueError(key, ''), key).toBeUndefined();
      expect(annotationValueError(key, 'net1, br-ex.20 ,veth_a'), key).toBeUndefined();
      expect(annotationValueError(key, 'wlan0123456789a'), key).toBeUndefined(); // 15 characters
    }
    const key = 'traffic.sidecar.istio.io/excludeInterfaces';
    expect(annotationValueError(key, 'net1,,net2')).toBe('empty interface name');
    expect(annotationValueError(key, 'net1, ')).toBe('empty interface name');
    expect(annotationValueError(key, 'wlan0123456789ab')).toBe('interface name "wlan0123456789ab" too long (max 15 chars)');
    // 15 characters but 16 bytes: Go measures bytes.
    expect(annotationValueError(key, 'eth\u00e901234567890')).toBe('interface name "eth\u00e901234567890" too long (max 15 chars)');
    expect(annotationValueError(key, 'ethé')).toBe('interface name "ethé" contains invalid characters');
    expect(annotationValueError(key, '9net')).toBe('interface name "9net" contains invalid characters');
    expect(annotationValueError(key, 'net1 -j ACCEPT')).toBe('interface name "net1 -j ACCEPT" contains invalid characters');
    expect(annotationValueError(key, 'net1;reboot')).toBe('interface name "net1;reboot" contains invalid characters');
    // Go's TrimSpace takes NEL (U+0085) as space and leaves U+FEFF, unlike String.prototype.trim.
    expect(annotationValueError(key, '\u0085net1')).toBeUndefined();
    expect(annotationValueError(key, '\ufeffnet1')).toBe('interface name "\\ufeffnet1" contains invalid characters');
  });

  it("follows istio.io/api's current catalog", () => {
    expect(lookupAnnotation('sidecar.istio.io/enableCoreDump')).toBeUndefined();
    expect(lookupAnnotation('sidecar.istio.io/statsFlushInterval')).toMatchObject({ status: 'Alpha', resources: ['Pod'], deprecated: false });
    expect(lookupAnnotation('sidecar.istio.io/statsCompression')).toMatchObject({ deprecated: true });
    expect(lookupAnnotation('traffic.sidecar.istio.io/kubevirtInterfaces')).toMatchObject({ deprecated: true });
    expect(lookupAnnotation('istio.io/use-waypoint-canary-weight')?.resources).toEqual(['Service', 'ServiceEntry', 'Namespace']);
    expect(lookupAnnotation('networking.istio.io/traffic-distribution')?.resources).toEqual(['Namespace', 'Service', 'ServiceEntry']);
  });
});

describe('annotations.K8sAnalyzer', () => {
  it('accepts known annotations on the kinds they belong to and ignores foreign ones', () => {
    const out = analyze(k8sAnnotationsAnalyzer, {
      'ok.yaml': docs(
        pod(
          'web',
          '    proxy.istio.io/config: "{}"\n    readiness.status.sidecar.istio.io/periodSeconds: "10"\n    helm.sh/hook: test\n    galley.istio.io/analyze-suppress: IST0103\n    sidecar.istio.io/inject: "true"',
          '',
        ),
        `
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations:
    networking.istio.io/exportTo: "."
    kubernetes.io/psp: privileged
spec:
  ports:
  - name: http
    port: 80
`,
      ).replace(
        'metadata:\n  name: web\n  namespace: shop\n  annotations:',
        'metadata:\n  name: web\n  namespace: shop\n  labels:\n    sidecar.istio.io/inject: "true"\n  annotations:',
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it("reports unknown (IST0108), misplaced (IST0107), deprecated (IST0135) and invalid (IST0125) annotations, at the resource's line as istioctl prints it, pointing at the annotation", () => {
    const text = docs(
      pod('bad', '    sidecar.istio.io/proxyCPUs: 100m\n    readiness.status.sidecar.istio.io/initialDelaySeconds: soon'),
      `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
  annotations:
    sidecar.istio.io/inject: "false"
spec:
  template:
    metadata:
      labels: {app: api}
`,
      `
apiVersion: v1
kind: Namespace
metadata:
  name: shop
  annotations:
    networking.istio.io/exportTo: "*"
`,
    );
    const out = analyze(k8sAnnotationsAnalyzer, { 'a.yaml': text });
    expect(pairs(out)).toEqual([
      'IST0107 Deployment shop/api',
      'IST0107 Namespace shop',
      'IST0108 Pod shop/bad',
      'IST0125 Pod shop/bad',
      'IST0135 Deployment shop/api',
    ]);
    const byCode = (code: string, origin: string) => out.find((d) => d.code === code && d.origin === origin);
    const unknown = byCode('IST0108', 'Pod shop/bad');
    expect(unknown?.message).toBe('Unknown annotation: sidecar.istio.io/proxyCPUs');
    // Istio's AddLineNumber sets the line on a copy of the message: istioctl prints the resource's line.
    expect(unknown?.line).toBe(lineOf(text, 'kind: Pod') - 1);
    expect(unknown?.range?.startLine).toBe(lineOf(text, 'proxyCPUs'));
    const invalid = byCode('IST0125', 'Pod shop/bad');
    expect(invalid?.message).toBe(
      'Invalid annotation readiness.status.sidecar.istio.io/initialDelaySeconds: strconv.ParseUint: parsing "soon": invalid syntax',
    );
    expect(invalid?.line).toBe(lineOf(text, 'kind: Pod') - 1);
    expect(invalid?.range?.startLine).toBe(lineOf(text, 'initialDelaySeconds'));
    expect(byCode('IST0107', 'Deployment shop/api')?.message).toBe('Misplaced annotation: sidecar.istio.io/inject can only be applied to Pod');
    expect(byCode('IST0107', 'Namespace shop')?.message).toBe('Misplaced annotation: networking.istio.io/exportTo can only be applied to Service');
    const deprecated = byCode('IST0135', 'Deployment shop/api');
    expect(deprecated?.message).toBe(
      'Annotation "sidecar.istio.io/inject" has been deprecated in favor of the "sidecar.istio.io/inject" label and may not work in future Istio versions.',
    );
    expect(deprecated?.level).toBe('Info');
    expect(deprecated?.line).toBe(lineOf(text, 'kind: Deployment') - 1);
    expect(deprecated?.range?.startLine).toBe(lineOf(text, 'inject: "false"'));
  });

  it('skips annotations Istio writes itself, wherever they appear', () => {
    const out = analyze(k8sAnnotationsAnalyzer, {
      's.yaml': `
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations:
    istio.io/rev: canary
    sidecar.istio.io/status: "{}"
spec:
  ports:
  - {name: http, port: 80}
`,
    });
    expect(pairs(out)).toEqual([]);
  });

  it('is in the default set; the alpha analyzer is optional', () => {
    expect(ALL_ANALYZERS).toContain(k8sAnnotationsAnalyzer);
    expect(ALL_ANALYZERS).not.toContain(alphaAnnotationsAnalyzer);
    expect(OPTIONAL_ANALYZERS).toContain(alphaAnnotationsAnalyzer);
  });
});

describe('annotations.AlphaAnalyzer', () => {
  it('reports alpha annotations, not beta/stable ones or those Istio sets itself', () => {
    const text = docs(
      pod(
        'alpha',
        '    sidecar.istio.io/proxyCPU: 100m\n    proxy.istio.io/config: "{}"\n    sidecar.istio.io/status: "{}"\n    istio.io/rev: canary\n    sidecar.istio.io/interceptionMode: REDIRECT',
      ),
    );
    const out = analyze(alphaAnnotationsAnalyzer, { 'p.yaml': text });
    // No istio-init container: the pod uses CNI, so interceptionMode (set by default) is ignored.
    expect(pairs(out)).toEqual(['IST0136 Pod shop/alpha']);
    expect(out[0]?.message).toBe('Annotation "sidecar.istio.io/proxyCPU" is part of an alpha-phase feature and may be incompletely supported.');
    expect(out[0]?.line).toBe(lineOf(text, 'kind: Pod') - 1);
    expect(out[0]?.range?.startLine).toBe(lineOf(text, 'proxyCPU'));
  });

  it('reports injector defaults on pods initialised by istio-init', () => {
    const text = pod('legacy', '    sidecar.istio.io/interceptionMode: REDIRECT', '  initContainers:\n  - name: istio-init\n');
    const out = analyze(alphaAnnotationsAnalyzer, { 'p.yaml': text });
    expect(pairs(out)).toEqual(['IST0136 Pod shop/legacy']);
  });

  it('is quiet without alpha annotations', () => {
    expect(
      pairs(analyze(alphaAnnotationsAnalyzer, { 'p.yaml': pod('beta', '    proxy.istio.io/config: "{}"\n    kubernetes.io/ingress.class: istio') })),
    ).toEqual([]);
  });
});
