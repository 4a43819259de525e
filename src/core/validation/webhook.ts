// The validating webhook's semantic rules (Istio's pkg/config/validation), one file per kind
// or concern under webhook/. `validateWebhook` takes what Istio's validate functions take (a
// kind, name, namespace, labels, annotations and the spec); `webhookFindings` runs it on a
// resource the way istioctl analyze does: with the name and namespace only, so the rules that
// read labels or annotations (dry-run, gateway semantics, IP auto-allocation opt-out) see none.
import type { Resource } from '../document/types.ts';
import type { ValidationFinding } from './types.ts';
import { isObj } from '../document/read.ts';
import { goQuote } from '../go/fmt.ts';
import { numError, parseBool } from '../go/strconv.ts';
import { V } from './webhook/result.ts';
import type { Cfg } from './webhook/common.ts';
import { validateGateway } from './webhook/gateway.ts';
import { validateDestinationRule } from './webhook/destinationRule.ts';
import { validateVirtualService } from './webhook/virtualService.ts';
import { validateServiceEntry, validateWorkloadEntrySpec, validateWorkloadGroup } from './webhook/serviceEntry.ts';
import { validateSidecar } from './webhook/sidecar.ts';
import { validateAuthorizationPolicy, validatePeerAuthentication, validateRequestAuthentication } from './webhook/security.ts';
import { validateProxyConfig, validateTelemetry, validateTrafficExtension, validateWasmPlugin } from './webhook/telemetry.ts';
import { validateEnvoyFilter } from './webhook/envoyFilter.ts';

type Validator = (cfg: Cfg) => V;

/** The webhook's validate function of each Istio kind, by kind id (kinds.ts). */
export const WEBHOOK_VALIDATORS: Readonly<Record<string, Validator>> = {
  'security.istio.io/AuthorizationPolicy': validateAuthorizationPolicy,
  'networking.istio.io/DestinationRule': validateDestinationRule,
  'networking.istio.io/EnvoyFilter': validateEnvoyFilter,
  'networking.istio.io/Gateway': validateGateway,
  'security.istio.io/PeerAuthentication': validatePeerAuthentication,
  'networking.istio.io/ProxyConfig': validateProxyConfig,
  'security.istio.io/RequestAuthentication': validateRequestAuthentication,
  'networking.istio.io/ServiceEntry': validateServiceEntry,
  'networking.istio.io/Sidecar': validateSidecar,
  'telemetry.istio.io/Telemetry': validateTelemetry,
  'extensions.istio.io/TrafficExtension': validateTrafficExtension,
  'networking.istio.io/VirtualService': validateVirtualService,
  'extensions.istio.io/WasmPlugin': validateWasmPlugin,
  'networking.istio.io/WorkloadEntry': validateWorkloadEntrySpec,
  'networking.istio.io/WorkloadGroup': validateWorkloadGroup,
};

export interface WebhookInput {
  kindId: string;
  name: string;
  namespace: string;
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  spec: unknown;
}

const DRY_RUN = 'istio.io/dry-run';

/** validateMetadata: the annotation checks Istio runs before every kind's rules. */
function validateMetadata(input: WebhookInput, annotations: Readonly<Record<string, string>>, spec: Record<string, unknown>): V | undefined {
  const has = (k: string) => Object.hasOwn(annotations, k);
  const isAuthz = input.kindId === 'security.istio.io/AuthorizationPolicy';
  if (has(DRY_RUN)) {
    const val = annotations[DRY_RUN] as string;
    if (!isAuthz)
      return new V().err(`${input.namespace}/${input.name} has unsupported annotation ${DRY_RUN}, please remove the annotation`, 'metadata.annotations');
    const action =
      typeof spec.action === 'string'
        ? spec.action
        : spec.action === 1
          ? 'DENY'
          : spec.action === undefined || spec.action === 0
            ? 'ALLOW'
            : String(spec.action);
    if (action === 'ALLOW' || action === 'DENY') {
      if (parseBool(val) === undefined) {
        return new V().err(
          `${input.namespace}/${input.name} has annotation ${DRY_RUN} with invalid value (${val}): ${numError('ParseBool', val, 'invalid syntax')}`,
          'metadata.annotations',
        );
      }
    } else {
      return new V().err(
        `the annotation ${DRY_RUN} currently only supports action ALLOW/DENY, found action ${action} in ${input.namespace}/${input.name}`,
        'metadata.annotations',
      );
    }
  }
  if (has('internal.istio.io/webhook-always-reject'))
    return new V().err(`${goQuote('internal.istio.io/webhook-always-reject')} annotation found, rejecting`, 'metadata.annotations');
  for (const k of ['internal.istio.io/parent-namespace', 'internal.istio.io/parents']) {
    if (has(k)) return new V().err(`${goQuote(k)} annotation found, this may not be set by users`, 'metadata.annotations');
  }
  return undefined;
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

/** The webhook's findings for one object: errors first, then warnings, each in Istio's order. */
export function validateWebhook(input: WebhookInput): ValidationFinding[] {
  const validator = WEBHOOK_VALIDATORS[input.kindId];
  if (!validator) return [];
  const spec = isObj(input.spec) ? input.spec : {};
  const annotations = input.annotations ?? EMPTY;
  const v =
    validateMetadata(input, annotations, spec) ?? validator({ name: input.name, namespace: input.namespace, labels: input.labels ?? EMPTY, annotations, spec });
  const out: ValidationFinding[] = [];
  for (const e of v.errors) out.push({ level: 'error', message: e.message, path: e.path, layer: 'webhook', ...(e.analysis ? { analysis: e.analysis } : {}) });
  for (const w of v.warnings)
    out.push({ level: 'warning', message: w.message, path: w.path, layer: 'webhook', ...(w.analysis ? { analysis: w.analysis } : {}) });
  return out;
}

export function webhookFindings(r: Resource): ValidationFinding[] {
  if (!WEBHOOK_VALIDATORS[r.kindId]) return [];
  return validateWebhook({ kindId: r.kindId, name: r.name, namespace: r.namespace, spec: r.body.spec });
}
