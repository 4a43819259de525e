// The native evaluations of CRD rules (validation/schema/cel.ts) against CEL itself, at the
// schema nodes of Istio's kinds that carry each rule: for every value below, the outcome with
// the natives is the outcome with CEL alone. The browser worker loads CEL only when a rule
// has no native answer, so a native that differed would change a diagnostic.
import { describe, expect, it } from 'vitest';
import { evalRule, needsCelLibrary } from '../../src/core/validation/schema/cel.ts';
import { kindsOfGroup } from '../../src/core/config/api/crd/index.ts';
import type { Schema } from '../../src/core/config/shape.ts';

const GROUPS = ['networking.istio.io', 'security.istio.io', 'telemetry.istio.io', 'extensions.istio.io'];

/** Every schema node of Istio's kinds carrying the rule (whitespace as written). */
function nodesWithRule(text: string): Schema[] {
  const found: Schema[] = [];
  const seen = new Set<Schema>();
  const visit = (s: Schema | undefined): void => {
    if (!s || seen.has(s)) return;
    seen.add(s);
    if (s.rules?.some((r) => r.rule.replace(/\s+/g, ' ').trim() === text)) found.push(s);
    for (const p of Object.values(s.properties ?? {})) visit(p);
    visit(s.items);
    visit(s.values);
  };
  for (const g of GROUPS) for (const k of kindsOfGroup(g)) visit((k.spec ?? k.body)?.schema as Schema | undefined);
  return found;
}

const PORT_LEVEL = 'has(self.portLevelMtls) ? (((has(self.selector) && has(self.selector.matchLabels)) ? self.selector.matchLabels : {}).size() > 0) : true';
const NOT_WILDCARD = 'self != "*"';
const UNIQUE_PORTS = 'self.all(l1, self.exists_one(l2, l1.number == l2.number))';
const CIDR =
  '!((has(self.addresses) ? self.addresses : []).exists(k, k.contains("/")) && !((has(self.resolution) ? self.resolution : "NONE") in ["STATIC", "NONE"]))';
const NONE_NO_ENDPOINTS = '((has(self.resolution) ? self.resolution : "NONE") == "NONE") ? !has(self.endpoints) : true';
const DNS_RR = '((has(self.resolution) ? self.resolution : "") == "DNS_ROUND_ROBIN") ? ((has(self.endpoints) ? self.endpoints : []).size() <= 1) : true';
const WAYPOINT = 'has(self.context) ? ((self.context == "WAYPOINT") ? has(self.waypoint) : !has(self.waypoint)) : !has(self.waypoint)';
const UDS_DIR = 'self.startsWith("unix://") ? !self.endsWith("/") : true';
const UDS_ABS = 'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true';
const ADDRESS = 'has(self.address) || has(self.network)';
const UDS_PORTS = '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true';
const PORT_NAMES = 'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))';
const REMOVE = '((has(self.operation) ? self.operation : "") == "REMOVE") ? !has(self.value) : true';
const WASM_LUA = 'has(self.wasm) != has(self.lua)';

const long = 'p'.repeat(62);
const strings = [
  '',
  '*',
  'a*',
  'x.example.com',
  'unix://',
  'unix:///var/run/s',
  'unix://@abstract',
  'unix://rel',
  'unix:///dir/',
  'unix://é/',
  'unix://🙂x',
  '10.0.0.0/8',
];

/** Values for each rule: the shapes the natives answer, and some they leave to CEL. */
const CASES: Array<[string, unknown[]]> = [
  [
    PORT_LEVEL,
    [
      {},
      { mtls: { mode: 'STRICT' } },
      { portLevelMtls: { 8080: { mode: 'DISABLE' } } },
      { portLevelMtls: {}, selector: {} },
      { portLevelMtls: { 1: {} }, selector: { matchLabels: {} } },
      { portLevelMtls: { 1: {} }, selector: { matchLabels: { app: 'a' } } },
      { portLevelMtls: null, selector: { matchLabels: { app: 'a' } } },
      { portLevelMtls: { 1: {} }, selector: { matchLabels: { app: undefined } } },
      { selector: { matchLabels: { app: 'a' } } },
      { portLevelMtls: { 1: {} }, selector: { matchLabels: null } },
      { portLevelMtls: { 1: {} }, selector: null },
      { portLevelMtls: { 1: {} }, selector: { matchLabels: { app: null } } },
      { portLevelMtls: { 1: {} }, selector: { matchLabels: { app: null, b: 'x' } } },
    ],
  ],
  [NOT_WILDCARD, strings],
  [
    UNIQUE_PORTS,
    [
      [],
      [{ number: 80, name: 'http' }],
      [{ number: 80 }, { number: 443 }],
      [{ number: 80 }, { number: 80, name: 'b' }],
      [{ number: 80 }, { number: 443 }, { number: 80 }],
      [{ name: 'no-number' }],
      [{ number: 80 }, { name: 'x' }],
      [{ number: 80 }, { name: 'x' }, { number: 80 }],
      [{ number: 65535 }, { number: 0 }],
      [{ number: null }, { number: 80 }],
    ],
  ],
  [
    CIDR,
    [
      {},
      { addresses: ['10.0.0.1'] },
      { addresses: ['10.0.0.0/8'] },
      { addresses: ['10.0.0.0/8'], resolution: 'DNS' },
      { addresses: ['10.0.0.0/8'], resolution: 'STATIC' },
      { addresses: ['10.0.0.1'], resolution: 'DNS' },
      { addresses: [], resolution: 'DNS' },
      { resolution: 'DNS' },
      { addresses: ['1.1.1.1', 'fd00::/8'], resolution: 'DNS_ROUND_ROBIN' },
      { addresses: ['10.0.0.0/8'], resolution: 'NONE' },
      { addresses: null, resolution: 'DNS' },
      { addresses: ['10.0.0.0/8'], resolution: null },
    ],
  ],
  [
    NONE_NO_ENDPOINTS,
    [
      {},
      { endpoints: [] },
      { endpoints: [{ address: '1.1.1.1' }] },
      { resolution: 'NONE', endpoints: [{}] },
      { resolution: 'STATIC', endpoints: [{}] },
      { resolution: 'DNS' },
      { resolution: 'NONE' },
      { endpoints: null },
      { resolution: null, endpoints: [] },
    ],
  ],
  [
    DNS_RR,
    [
      {},
      { resolution: 'DNS_ROUND_ROBIN' },
      { resolution: 'DNS_ROUND_ROBIN', endpoints: [] },
      { resolution: 'DNS_ROUND_ROBIN', endpoints: [{ address: 'a' }] },
      { resolution: 'DNS_ROUND_ROBIN', endpoints: [{ address: 'a' }, { address: 'b' }] },
      { resolution: 'DNS', endpoints: [{}, {}] },
      { endpoints: [{}, {}] },
      { resolution: 'DNS_ROUND_ROBIN', endpoints: null },
    ],
  ],
  [
    WAYPOINT,
    [
      {},
      { context: 'WAYPOINT' },
      { context: 'WAYPOINT', waypoint: {} },
      { context: 'SIDECAR_INBOUND' },
      { context: 'SIDECAR_INBOUND', waypoint: {} },
      { waypoint: {} },
      { context: 'ANY', listener: {} },
      { context: null, waypoint: {} },
      { context: 'WAYPOINT', waypoint: null },
    ],
  ],
  [UDS_DIR, strings],
  [UDS_ABS, strings],
  [
    ADDRESS,
    [
      {},
      { address: '1.1.1.1' },
      { network: 'n1' },
      { address: '', network: '' },
      { ports: { http: 80 } },
      { address: null },
      { address: null, network: 'n' },
      { network: null },
    ],
  ],
  [
    UDS_PORTS,
    [
      {},
      { address: '1.1.1.1', ports: { http: 80 } },
      { address: 'unix:///s' },
      { address: 'unix:///s', ports: { http: 80 } },
      { ports: { http: 80 } },
      { address: 'unix:///s', ports: {} },
      { address: 'unix:///s', ports: null },
      { address: null, ports: {} },
    ],
  ],
  [
    PORT_NAMES,
    [
      {},
      { http: 80 },
      { 'http-2': 80, grpc: 9 },
      { '-bad': 1 },
      { 'bad-': 1 },
      { 'a.b': 1 },
      { '': 1 },
      { [long]: 1 },
      { [`${long}q`]: 1 },
      { é: 1 },
      { '1': 1, a: 2 },
      { 'ok\n': 1 },
      { http: null },
      { '-bad': null },
    ],
  ],
  [
    REMOVE,
    [
      {},
      { operation: 'REMOVE' },
      { operation: 'REMOVE', value: 'x' },
      { operation: 'UPSERT', value: 'x' },
      { value: 'x' },
      { operation: 'REMOVE', value: '' },
      { operation: 'REMOVE', value: null },
      { operation: null, value: 'x' },
    ],
  ],
  [WASM_LUA, [{}, { wasm: {} }, { lua: {} }, { wasm: {}, lua: {} }, { wasm: null }, { wasm: {}, lua: null }]],
];

describe('native evaluations of CRD rules', () => {
  for (const [rule, values] of CASES) {
    it(`agree with CEL: ${rule.slice(0, 80)}`, () => {
      const nodes = nodesWithRule(rule);
      expect(nodes.length, 'the rule is on some Istio schema node').toBeGreaterThan(0);
      let decided = 0;
      for (const s of nodes) {
        for (const v of values) {
          const label = `${rule} on ${JSON.stringify(v)}`;
          if (!needsCelLibrary({ rule }, v)) decided++;
          expect(evalRule({ rule }, v, s, true), label).toEqual(evalRule({ rule }, v, s, false));
        }
      }
      // Most of the values above are shapes the native answers for.
      expect(decided * 2, rule).toBeGreaterThan(nodes.length * values.length);
    });
  }

  it('leave to CEL the shapes they are not sure of', () => {
    // CEL's has() is false for a null field.
    expect(needsCelLibrary({ rule: ADDRESS }, { address: null })).toBe(true);
    expect(needsCelLibrary({ rule: WASM_LUA }, { wasm: null })).toBe(true);
    expect(needsCelLibrary({ rule: NOT_WILDCARD }, 5)).toBe(true);
    expect(needsCelLibrary({ rule: UNIQUE_PORTS }, [{ number: 80 }, { name: 'x' }])).toBe(true);
    expect(needsCelLibrary({ rule: UDS_ABS }, 'unix://')).toBe(true);
    expect(needsCelLibrary({ rule: PORT_LEVEL }, { portLevelMtls: {}, selector: { matchLabels: null } })).toBe(true);
    expect(needsCelLibrary({ rule: CIDR }, { addresses: [1] })).toBe(true);
  });
});
