// The typed views (config/api/*.ts) read a subset of what the CRD shapes (config/api/crd)
// describe: every field a view reads exists in the API's schema, so the two cannot drift apart.
import { describe, expect, it } from 'vitest';
import type { Schema, Shape } from '../../src/core/config/shape.ts';
import * as net from '../../src/core/config/api/networking.ts';
import * as sec from '../../src/core/config/api/security.ts';
import * as tel from '../../src/core/config/api/telemetry.ts';
import { API_KINDS } from '../../src/core/config/api/crd/index.ts';

function crdSpec(kind: string): Schema {
  const k = API_KINDS.find((x) => x.kind === kind && x.group.endsWith('istio.io'));
  return k?.spec?.schema as Schema;
}

/** Fields a view reads that the schema does not have (paths); `compared` counts the fields checked. */
function extraFields(view: Schema | undefined, api: Schema | undefined, path: string, out: string[], depth = 0, compared = { n: 0 }): void {
  if (!view || !api || depth > 12) return;
  if (view.type === 'array') return extraFields(view.items, api.items, `${path}[]`, out, depth + 1, compared);
  if (view.values && api.values) return extraFields(view.values, api.values, `${path}{}`, out, depth + 1, compared);
  if (view.type !== 'object' || !view.properties || api.type !== 'object') return;
  const apiProps = api.properties ?? {};
  for (const [k, v] of Object.entries(view.properties)) {
    const a = apiProps[k];
    compared.n++;
    if (!a) {
      if (!api.preserveUnknown) out.push(`${path}.${k}`);
      continue;
    }
    extraFields(v, a, `${path}.${k}`, out, depth + 1, compared);
  }
}

const PAIRS: Array<[string, Shape<unknown>]> = [
  ['VirtualService', net.VirtualServiceSpec],
  ['DestinationRule', net.DestinationRuleSpec],
  ['Gateway', net.GatewaySpec],
  ['ServiceEntry', net.ServiceEntrySpec],
  ['Sidecar', net.SidecarSpec],
  ['EnvoyFilter', net.EnvoyFilterSpec],
  ['WorkloadEntry', net.WorkloadEntrySpec],
  ['WorkloadGroup', net.WorkloadGroupSpec],
  ['ProxyConfig', net.ProxyConfigSpec],
  ['AuthorizationPolicy', sec.AuthorizationPolicySpec],
  ['PeerAuthentication', sec.PeerAuthenticationSpec],
  ['RequestAuthentication', sec.RequestAuthenticationSpec],
  ['Telemetry', tel.TelemetrySpec],
  ['WasmPlugin', tel.WasmPluginSpec],
];

describe('typed views and the API schema', () => {
  for (const [kind, view] of PAIRS) {
    it(`${kind}: every field the view reads is in the CRD schema`, () => {
      const out: string[] = [];
      const compared = { n: 0 };
      // A missing schema, or a view that is not an object, would compare nothing and pass.
      expect(crdSpec(kind), `no CRD schema for ${kind}`).toBeDefined();
      extraFields(view.schema, crdSpec(kind), 'spec', out, 0, compared);
      expect(compared.n, `no field of the ${kind} view was compared`).toBeGreaterThan(0);
      expect(out).toEqual([]);
    });
  }
});
