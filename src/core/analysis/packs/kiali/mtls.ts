// Kiali's mTLS status (kiali/util/mtls/status.go) and the mTLS helpers of kiali/kubernetes it
// uses: how a namespace, the mesh or a workload is judged to receive mTLS traffic from the
// PeerAuthentications, the DestinationRules and the mesh config's auto-mTLS.
import type { Resource } from '../../../document/types.ts';
import { isObj, str, stringMap, type Obj } from '../../../document/read.ts';
import { selectorMatches } from '../../../config/labels.ts';
import { CLIENT_TLS_MODES } from '../../../config/api/networking.ts';
import { filterByHost } from './hosts.ts';

export const MTLS_ENABLED = 'MTLS_ENABLED';
export const MTLS_PARTIALLY_ENABLED = 'MTLS_PARTIALLY_ENABLED';
export const MTLS_NOT_ENABLED = 'MTLS_NOT_ENABLED';
export const MTLS_DISABLED = 'MTLS_DISABLED';

function spec(r: Resource): Obj {
  return isObj(r.body.spec) ? r.body.spec : {};
}

/** A PeerAuthentication's `mtls.mode` as Go prints the enum: '' without `mtls`, UNSET without a mode. */
export function peerAuthnMode(pa: Resource): string {
  const mtls = spec(pa).mtls;
  if (!isObj(mtls)) return '';
  const mode = mtls.mode;
  if (typeof mode === 'number') return ['UNSET', 'DISABLE', 'PERMISSIVE', 'STRICT'][mode] ?? String(mode);
  return mode === undefined || mode === null || mode === '' ? 'UNSET' : str(mode);
}

/** The PeerAuthentication has a selector (Go's non-nil Selector). */
export function peerAuthnHasSelector(pa: Resource): boolean {
  return isObj(spec(pa).selector);
}

/** kubernetes.PeerAuthnHasMTLSEnabled's mode: '' for a PeerAuthentication with a selector. */
export function peerAuthnNamespaceWideMode(pa: Resource): string {
  return peerAuthnHasSelector(pa) ? '' : peerAuthnMode(pa);
}

/** The top-level `trafficPolicy.tls.mode` as Go prints it: '' without `tls`, DISABLE when unset. */
export function destinationRuleTlsMode(dr: Resource): string {
  const tp = spec(dr).trafficPolicy;
  if (!isObj(tp) || !isObj(tp.tls)) return '';
  const mode = tp.tls.mode;
  if (typeof mode === 'number') return CLIENT_TLS_MODES[mode] ?? String(mode);
  return mode === undefined || mode === null || mode === '' ? 'DISABLE' : str(mode);
}

/** kubernetes.DestinationRuleHasMTLSEnabledForHost's mode: the DR's TLS mode when its host is exactly `host`. */
export function destinationRuleModeForHost(dr: Resource, host: string): string {
  const h = str(spec(dr).host);
  return h === '' || h !== host ? '' : destinationRuleTlsMode(dr);
}

export interface TlsStatus {
  destinationRuleStatus: string;
  peerAuthenticationStatus: string;
  overallStatus: string;
}

const EMPTY: TlsStatus = { destinationRuleStatus: '', peerAuthenticationStatus: '', overallStatus: '' };

export interface MtlsStatusInput {
  allowPermissive?: boolean;
  autoMtlsEnabled: boolean;
  destinationRules?: readonly Resource[];
  /** Go's nil label set is `undefined`. */
  matchingLabels?: Readonly<Record<string, string>>;
  peerAuthentications?: readonly Resource[];
  services?: readonly Resource[];
}

/** The first DR's mode for a host, per DR list (lists are per run and never change). */
const FIRST_DR_MODE = new WeakMap<readonly Resource[], Map<string, string>>();

/** mtls.MtlsStatus. */
export class MtlsStatus {
  private readonly allowPermissive: boolean;
  private readonly autoMtls: boolean;
  private readonly drs: readonly Resource[];
  private readonly pas: readonly Resource[];

  constructor(private readonly input: MtlsStatusInput) {
    this.allowPermissive = input.allowPermissive ?? false;
    this.autoMtls = input.autoMtlsEnabled;
    this.drs = input.destinationRules ?? [];
    this.pas = input.peerAuthentications ?? [];
  }

  private firstPeerAuthnMode(): string {
    for (const pa of this.pas) {
      const mode = peerAuthnNamespaceWideMode(pa);
      if (mode !== '') return mode;
    }
    return '';
  }

  private firstDestinationRuleMode(host: string): string {
    // Asked for the same hosts over and over (once per policy checked): remembered per DR list.
    let known = FIRST_DR_MODE.get(this.drs);
    if (!known) FIRST_DR_MODE.set(this.drs, (known = new Map()));
    const hit = known.get(host);
    if (hit !== undefined) return hit;
    let mode = '';
    for (const dr of this.drs) {
      mode = destinationRuleModeForHost(dr, host);
      if (mode !== '') break;
    }
    known.set(host, mode);
    return mode;
  }

  /** The mTLS status of the workloads the matching labels select. */
  workloadMtlsStatus(namespace: string, identityDomain: string): string {
    for (const pa of this.pas) {
      const selector = spec(pa).selector;
      if (!isObj(selector)) continue;
      const selectorLabels = stringMap(selector.matchLabels);
      if (Object.keys(selectorLabels).length === 0) continue;
      if (!selectorMatches(selectorLabels, this.input.matchingLabels ?? {})) continue;
      const mode = peerAuthnMode(pa);
      if (mode === 'STRICT') return MTLS_ENABLED;
      if (mode === 'DISABLE') return MTLS_DISABLED;
      if (mode === 'PERMISSIVE') {
        if (this.drs.length === 0) return MTLS_NOT_ENABLED;
        for (const svc of this.input.services ?? []) {
          const svcSelector = stringMap(spec(svc).selector);
          if (svc.namespace !== namespace || Object.keys(svcSelector).length === 0) continue;
          if (!selectorMatches(selectorLabels, svcSelector)) continue;
          for (const dr of this.drs) {
            if (!filterByHost(str(spec(dr).host), dr.namespace, svc.name, svc.namespace, identityDomain)) continue;
            const drMode = destinationRuleTlsMode(dr);
            if (drMode === 'ISTIO_MUTUAL' || drMode === 'MUTUAL') return MTLS_ENABLED;
            if (drMode === 'DISABLE') return MTLS_DISABLED;
          }
        }
        return MTLS_NOT_ENABLED;
      }
    }
    return MTLS_NOT_ENABLED;
  }

  namespaceMtlsStatus(namespace: string, identityDomain: string): TlsStatus {
    return this.finalStatus(this.firstDestinationRuleMode(`*.${namespace}.${identityDomain}`), this.firstPeerAuthnMode());
  }

  private finalStatus(drStatus: string, paStatus: string): TlsStatus {
    let overall = MTLS_PARTIALLY_ENABLED;
    const enabled = drStatus === 'ISTIO_MUTUAL' || drStatus === 'MUTUAL' || (drStatus === '' && this.autoMtls);
    const disabled = drStatus === 'DISABLE' || (drStatus === '' && this.autoMtls);
    if ((paStatus === 'STRICT' || (paStatus === 'PERMISSIVE' && this.allowPermissive)) && enabled) overall = MTLS_ENABLED;
    else if (paStatus === 'DISABLE' && disabled) overall = MTLS_DISABLED;
    else if (paStatus === '' && drStatus === '') overall = MTLS_NOT_ENABLED;
    return { destinationRuleStatus: drStatus, peerAuthenticationStatus: paStatus, overallStatus: overall };
  }

  meshMtlsStatus(): TlsStatus {
    const dr = this.firstDestinationRuleMode('*.local');
    const pa = this.firstPeerAuthnMode();
    return { destinationRuleStatus: dr, peerAuthenticationStatus: pa, overallStatus: this.overallMtlsStatus(EMPTY, this.finalStatus(dr, pa)) };
  }

  overallMtlsStatus(ns: TlsStatus, mesh: TlsStatus): string {
    const defined = (t: TlsStatus) => t.overallStatus === MTLS_ENABLED || t.overallStatus === MTLS_DISABLED;
    const partial = (t: TlsStatus) => t.overallStatus === MTLS_PARTIALLY_ENABLED;
    if (defined(ns)) return ns.overallStatus;
    if (partial(ns)) {
      const dr = ns.destinationRuleStatus === '' ? mesh.destinationRuleStatus : ns.destinationRuleStatus;
      const pa = ns.peerAuthenticationStatus === '' ? mesh.peerAuthenticationStatus : ns.peerAuthenticationStatus;
      return this.overallMtlsStatus(EMPTY, this.finalStatus(dr, pa));
    }
    if (defined(mesh)) return mesh.overallStatus;
    if (mesh.peerAuthenticationStatus === '' && mesh.destinationRuleStatus === '') return MTLS_NOT_ENABLED;
    if (
      (mesh.peerAuthenticationStatus === 'DISABLE' && mesh.destinationRuleStatus === '') ||
      (mesh.destinationRuleStatus === 'DISABLE' && mesh.peerAuthenticationStatus === '')
    )
      return MTLS_DISABLED;
    if (this.halfTlsConfigDefined(mesh)) return MTLS_ENABLED;
    return MTLS_PARTIALLY_ENABLED;
  }

  private halfTlsConfigDefined(t: TlsStatus): boolean {
    if (!this.autoMtls) return false;
    const mutual = t.destinationRuleStatus === 'ISTIO_MUTUAL' || t.destinationRuleStatus === 'MUTUAL';
    let defined = (t.peerAuthenticationStatus === 'STRICT' && t.destinationRuleStatus === '') || (mutual && t.peerAuthenticationStatus === '');
    if (!defined && this.allowPermissive) defined = t.peerAuthenticationStatus === 'PERMISSIVE' && t.destinationRuleStatus === '';
    return defined;
  }
}
