// Schema bounds at the boundary (issue #28). The bounds are Istio's CRD schemas,
// manifests/charts/base/files/crd-all.gen.yaml (istio/istio master, 2026-08), read by hand:
//   DestinationRule v1 spec.trafficPolicy.outlierDetection.consecutive5xxErrors: integer, minimum 0, maximum 4294967295
//   DestinationRule v1 spec.trafficPolicy.outlierDetection.outlierDetectionHttpErrorCodes[]: integer, minimum 100, maximum 599
//   DestinationRule v1 spec.trafficPolicy.retryBudget.percent: number (double), minimum 0, maximum 100
//   Telemetry v1 spec.tracing[].randomSamplingPercentage: number (double), minimum 0, maximum 100
//   ServiceEntry v1 spec.hosts: array, minItems 1, maxItems 256
//   Gateway v1 spec.servers[].tls.credentialNames: array, minItems 1, maxItems 2
// The API server (k8s.io/apiextensions-apiserver structural validation through kube-openapi
// pkg/validation/validate) rejects a value when value > maximum (inclusive bound: exactly at
// maximum passes) and a list when len < minItems; wording from kube-openapi
// pkg/validation/errors/schema.go (TooLarge "should be less than or equal to", TooFewItems
// "should have at least %d items", TooManyItems "must have at most %d items").
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { schemaFindings } from '../../src/core/validation/schema.ts';
import { makeResource } from '../../src/core/document/resources.ts';

function check(yaml: string): string[] {
  return schemaFindings(makeResource(jsyaml.load(yaml) as Record<string, unknown>, undefined)).map((f) => `${f.path ?? ''} | ${f.message}`);
}

const dr = (trafficPolicy: string) =>
  `apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r, namespace: a}\nspec:\n  host: a\n  trafficPolicy: ${trafficPolicy}\n`;
const telemetry = (pct: number) =>
  `apiVersion: telemetry.istio.io/v1\nkind: Telemetry\nmetadata: {name: t, namespace: a}\nspec:\n  tracing: [{randomSamplingPercentage: ${pct}}]\n`;
const se = (hosts: string[]) =>
  `apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata: {name: s, namespace: a}\nspec:\n  hosts: ${JSON.stringify(hosts)}\n  ports: [{number: 80, name: http, protocol: HTTP}]\n  resolution: DNS\n`;
const gw = (names: string[]) =>
  `apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata: {name: g, namespace: a}\nspec:\n  servers:\n  - port: {number: 443, name: https, protocol: HTTPS}\n    hosts: [a.example.com]\n    tls: {mode: SIMPLE, credentialNames: ${JSON.stringify(names)}}\n`;

const tooLarge = (path: string, v: number, max: number) => `${path} | ${path}: Invalid value: ${v}: ${path} in body should be less than or equal to ${max}`;
const tooSmall = (path: string, v: number, min: number) => `${path} | ${path}: Invalid value: ${v}: ${path} in body should be greater than or equal to ${min}`;
const tooFew = (path: string, n: number, min: number) => `${path} | ${path}: Invalid value: ${n}: ${path} in body should have at least ${min} items`;

describe('maximum is inclusive (crd-all.gen.yaml; kube-openapi validate: value > maximum fails)', () => {
  it('uint32 consecutive5xxErrors: 4294967295 passes, 4294967296 fails', () => {
    const p = 'spec.trafficPolicy.outlierDetection.consecutive5xxErrors';
    expect(check(dr('{outlierDetection: {consecutive5xxErrors: 4294967295}}'))).toEqual([]);
    expect(check(dr('{outlierDetection: {consecutive5xxErrors: 4294967296}}'))).toEqual([tooLarge(p, 4294967296, 4294967295)]);
  });

  it('outlierDetectionHttpErrorCodes items: 599 and 100 pass, 600 and 99 fail', () => {
    const p = 'spec.trafficPolicy.outlierDetection.outlierDetectionHttpErrorCodes[0]';
    expect(check(dr('{outlierDetection: {outlierDetectionHttpErrorCodes: [599]}}'))).toEqual([]);
    expect(check(dr('{outlierDetection: {outlierDetectionHttpErrorCodes: [600]}}'))).toEqual([tooLarge(p, 600, 599)]);
    expect(check(dr('{outlierDetection: {outlierDetectionHttpErrorCodes: [100]}}'))).toEqual([]);
    expect(check(dr('{outlierDetection: {outlierDetectionHttpErrorCodes: [99]}}'))).toEqual([tooSmall(p, 99, 100)]);
  });

  it('double retryBudget.percent: 100 passes, 100.5 fails, 0 passes', () => {
    const p = 'spec.trafficPolicy.retryBudget.percent';
    expect(check(dr('{retryBudget: {percent: 100}}'))).toEqual([]);
    expect(check(dr('{retryBudget: {percent: 0}}'))).toEqual([]);
    expect(check(dr('{retryBudget: {percent: 100.5}}'))).toEqual([tooLarge(p, 100.5, 100)]);
  });

  it('Telemetry randomSamplingPercentage: 100 passes, 100.01 fails', () => {
    const p = 'spec.tracing[0].randomSamplingPercentage';
    expect(check(telemetry(100))).toEqual([]);
    expect(check(telemetry(100.01))).toEqual([tooLarge(p, 100.01, 100)]);
  });
});

describe('minItems is inclusive (crd-all.gen.yaml; kube-openapi validate: len < minItems fails)', () => {
  it('ServiceEntry hosts: exactly 1 passes, 0 fails', () => {
    expect(check(se(['a.example.com']))).toEqual([]);
    expect(check(se([]))).toEqual([tooFew('spec.hosts', 0, 1)]);
  });

  it('Gateway tls.credentialNames: 1 and 2 pass, 0 fails (minItems 1), 3 fails (maxItems 2)', () => {
    const p = 'spec.servers[0].tls.credentialNames';
    expect(check(gw(['one']))).toEqual([]);
    expect(check(gw(['one', 'two']))).toEqual([]);
    expect(check(gw([]))).toEqual([tooFew(p, 0, 1)]);
    expect(check(gw(['one', 'two', 'three']))).toEqual([`${p} | ${p}: Too many: 3: must have at most 2 items`]);
  });
});
