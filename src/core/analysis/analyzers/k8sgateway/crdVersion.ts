// k8sgateway.CRDVersionAnalyzer: a Gateway API CRD whose bundle-version annotation (prerelease
// ignored) is below the minimum this Istio needs is not watched, so its resources are
// ignored (IST0176). CRDs without the annotation or with an unparsable version are skipped.
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { keySegment } from '../../../config/labels.ts';
import { GATEWAY_API_BUNDLE_VERSION_ANNOTATION } from '../../../config/wellKnown.ts';

/** Minimum bundle versions by CRD name (Istio's gatewayapi.MinimumCRDVersions). */
export const MINIMUM_CRD_VERSIONS: ReadonlyMap<string, readonly [number, number, number]> = new Map([
  ['grpcroutes.gateway.networking.k8s.io', [1, 1, 0]],
  ['backendtlspolicies.gateway.networking.k8s.io', [1, 4, 0]],
  ['tlsroutes.gateway.networking.k8s.io', [1, 5, 0]],
]);

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
  metadata: string;
}

const NUMERIC = /^(0|[1-9]\d*)$/;
const IDENT = /^[0-9A-Za-z-]+$/;

/**
 * Lenient semantic version parsing as in Masterminds/semver NewVersion: optional `v`, minor
 * and patch may be omitted, optional `-prerelease` and `+metadata`.
 */
export function parseSemVer(text: string): SemVer | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(text);
  if (!m) return undefined;
  const prerelease = m[4] ?? '';
  const metadata = m[5] ?? '';
  if (prerelease) {
    for (const id of prerelease.split('.')) {
      if (!IDENT.test(id)) return undefined;
      if (/^\d+$/.test(id) && !NUMERIC.test(id)) return undefined;
    }
  }
  if (metadata && !metadata.split('.').every((id) => IDENT.test(id))) return undefined;
  const n = (s: string | undefined) => (s === undefined ? 0 : Number(s));
  const v = { major: n(m[1]), minor: n(m[2]), patch: n(m[3]), prerelease, metadata };
  if (![v.major, v.minor, v.patch].every(Number.isSafeInteger)) return undefined;
  return v;
}

/** Masterminds' Version.String(): `major.minor.patch[-prerelease][+metadata]`, no `v`. */
export function semVerString(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}${v.prerelease ? `-${v.prerelease}` : ''}${v.metadata ? `+${v.metadata}` : ''}`;
}

function lessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  return false;
}

export const crdVersionAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'k8sgateway.CRDVersionAnalyzer',
    description: 'Checks that installed Gateway API CRDs meet the minimum bundle version Istio requires',
    inputs: [KINDS.CustomResourceDefinition],
  },
  {
    kind: KINDS.CustomResourceDefinition,
    check(ctx, crd) {
      const minimum = MINIMUM_CRD_VERSIONS.get(crd.name);
      if (!minimum) return;
      const text = crd.annotations[GATEWAY_API_BUNDLE_VERSION_ANNOTATION];
      if (text === undefined) return;
      const installed = parseSemVer(text);
      if (!installed) return;
      if (lessThan([installed.major, installed.minor, installed.patch], minimum)) {
        ctx.report(MESSAGES.GatewayAPICRDVersionBelowMinimum.at(crd, crd.name, semVerString(installed), minimum.join('.')), {
          highlightPath: `metadata.annotations${keySegment(GATEWAY_API_BUNDLE_VERSION_ANNOTATION)}`,
        });
      }
    },
  },
);
