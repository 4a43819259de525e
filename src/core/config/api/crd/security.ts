// The security.istio.io API as its CRDs accept it, in every served version (they share one
// schema): fields, types, enum values, bounds, formats and the CEL rules the API server runs,
// transcribed from Istio's CRDs into our shapes. The help lines are ours. The schema validator,
// the editor's completion and hover, and the typed views' consistency test read these.
import { bool, describe, enumOf, list, map, message, string } from '../../shape.ts';
import { PolicyTargetReference, WorkloadSelector, durationField } from './common.ts';

export const ExtensionProvider = message(
  {
    name: string,
  },
  { proto: true },
);

export const Source = message(
  {
    ipBlocks: describe(list(string), { help: 'Source IPs or CIDRs.' }),
    namespaces: describe(list(string), { help: 'Namespaces of the peers; needs mTLS.' }),
    notIpBlocks: list(string),
    notNamespaces: list(string),
    notPrincipals: list(string),
    notRemoteIpBlocks: list(string),
    notRequestPrincipals: list(string),
    notServiceAccounts: describe(list(describe(string, { maxLength: 320 })), { maxItems: 16 }),
    notTrustDomains: list(string),
    principals: describe(list(string), { help: 'Peer identities (cluster.local/ns/NS/sa/SA); needs mTLS.' }),
    remoteIpBlocks: list(string),
    requestPrincipals: describe(list(string), { help: 'JWT identities (issuer/subject).' }),
    serviceAccounts: describe(describe(list(describe(string, { maxLength: 320 })), { maxItems: 16 }), {
      help: 'Service accounts of the peers (ns/name); cannot be combined with principals or namespaces.',
    }),
    trustDomains: list(string),
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.serviceAccounts) || has(self.notServiceAccounts)) ? (!has(self.principals) &&\n!has(self.notPrincipals) && !has(self.namespaces) && !has(self.notNamespaces)) : true',
        message: 'Cannot set serviceAccounts with namespaces or principals',
      },
    ],
  },
);

export const RuleFrom = message(
  {
    source: Source,
  },
  { proto: true },
);

export const Operation = message(
  {
    hosts: describe(list(string), { help: 'Host header values.' }),
    methods: describe(list(string), { help: 'HTTP methods (or gRPC methods).' }),
    notHosts: list(string),
    notMethods: list(string),
    notPaths: list(string),
    notPorts: list(string),
    paths: describe(list(string), { help: 'Request paths; * as prefix/suffix wildcard.' }),
    ports: describe(list(string), { help: 'Destination ports.' }),
  },
  { proto: true },
);

export const RuleTo = message(
  {
    operation: Operation,
  },
  { proto: true },
);

export const Condition = message(
  {
    key: describe(string, { help: 'Attribute to test, e.g. request.headers[x-id] or source.ip.' }),
    notValues: list(string),
    values: describe(list(string), { help: 'Values the attribute may have.' }),
  },
  { proto: true, required: ['key'] },
);

export const Rule = message(
  {
    from: describe(describe(list(RuleFrom), { maxItems: 512 }), { help: 'Who sends the request: principals, namespaces, IPs.' }),
    to: describe(list(RuleTo), { help: 'What is requested: hosts, ports, methods, paths.' }),
    when: describe(list(Condition), { help: 'Extra conditions on request attributes.' }),
  },
  { proto: true },
);

export const AuthorizationPolicySpec = message(
  {
    action: describe(enumOf(['ALLOW', 'DENY', 'AUDIT', 'CUSTOM']), { help: 'ALLOW, DENY, AUDIT or CUSTOM (an external authorizer). Default: ALLOW.' }),
    provider: describe(ExtensionProvider, { help: 'The external authorizer to ask (CUSTOM action).' }),
    rules: describe(describe(list(Rule), { maxItems: 512 }), {
      help: 'Requests matching any rule get the action; an ALLOW policy with no rules denies everything.',
    }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
    targetRef: describe(PolicyTargetReference, { help: 'The resource (e.g. a Gateway or Service) this policy attaches to, instead of a workload selector.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.selector) ? 1 : 0) + (has(self.targetRef) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1',
        message: 'only one of targetRefs or selector can be set',
      },
    ],
    oneOf: [['provider']],
  },
);

export const MutualTLS = message(
  {
    mode: describe(enumOf(['UNSET', 'DISABLE', 'PERMISSIVE', 'STRICT']), {
      help: 'UNSET (inherit), DISABLE, PERMISSIVE (plaintext or mTLS) or STRICT (mTLS only).',
    }),
  },
  { proto: true },
);

export const PeerAuthenticationSpec = message(
  {
    mtls: describe(MutualTLS, { help: 'Mutual TLS mode for the selected workloads.' }),
    portLevelMtls: describe(
      describe(map(MutualTLS), {
        minProperties: 1,
        rules: [{ rule: 'self.all(key, 0 < int(key) && int(key) <= 65535)', message: 'port must be between 1-65535' }],
      }),
      { help: 'mTLS mode per port number (needs a selector).' },
    ),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
  },
  {
    proto: true,
    rules: [
      {
        rule: 'has(self.portLevelMtls) ? (((has(self.selector) && has(self.selector.matchLabels)) ? self.selector.matchLabels : {}).size() > 0) : true',
        message: 'portLevelMtls requires selector',
      },
    ],
  },
);

export const JWTHeader = message(
  {
    name: describe(string, { minLength: 1 }),
    prefix: string,
  },
  { proto: true, required: ['name'] },
);

export const ClaimToHeader = message(
  {
    claim: describe(string, { minLength: 1 }),
    header: describe(string, { pattern: '^[-_A-Za-z0-9]+$', minLength: 1 }),
  },
  { proto: true, required: ['header', 'claim'] },
);

export const JWTRule = message(
  {
    audiences: describe(list(describe(string, { minLength: 1 })), { help: 'Accepted audiences (aud claim); any audience when empty.' }),
    forwardOriginalToken: describe(bool, { help: 'Keep the token in the request forwarded to the workload.' }),
    fromCookies: list(describe(string, { minLength: 1 })),
    fromHeaders: describe(list(JWTHeader), { help: 'Headers to read the token from (default: Authorization: Bearer).' }),
    fromParams: list(describe(string, { minLength: 1 })),
    issuer: describe(describe(string, { minLength: 1 }), { help: 'Issuer (iss claim) of accepted tokens.' }),
    jwks: describe(string, { help: "The issuer's public keys (JWKS) inline." }),
    jwks_uri: describe(string, {
      minLength: 1,
      maxLength: 2048,
      rules: [{ rule: 'url(self).getScheme() in ["http", "https"]', message: 'url must have scheme http:// or https://' }],
    }),
    jwksUri: describe(
      describe(string, {
        minLength: 1,
        maxLength: 2048,
        rules: [{ rule: 'url(self).getScheme() in ["http", "https"]', message: 'url must have scheme http:// or https://' }],
      }),
      { help: "URL of the issuer's public keys (JWKS)." },
    ),
    outputClaimToHeaders: describe(list(ClaimToHeader), { help: 'Copy claims into request headers.' }),
    outputPayloadToHeader: string,
    presence: enumOf(['OPTIONAL', 'REQUIRED']),
    spaceDelimitedClaims: describe(list(describe(string, { minLength: 1 })), { maxItems: 64 }),
    timeout: durationField,
  },
  {
    proto: true,
    rules: [
      { rule: '(has(self.jwksUri) ? 1 : 0) + (has(self.jwks_uri) ? 1 : 0) + (has(self.jwks) ? 1 : 0) <= 1', message: 'only one of jwks or jwksUri can be set' },
    ],
  },
);

export const RequestAuthenticationSpec = message(
  {
    jwtRules: describe(describe(list(JWTRule), { maxItems: 4096 }), { help: 'Which JWTs are accepted, and where to find their keys.' }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
    targetRef: describe(PolicyTargetReference, { help: 'The resource (e.g. a Gateway or Service) this policy attaches to, instead of a workload selector.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.selector) ? 1 : 0) + (has(self.targetRef) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1',
        message: 'only one of targetRefs or selector can be set',
      },
    ],
  },
);

/** The kinds this file describes: served versions and the schema of `spec`. */
export const CRDS = [
  { group: 'security.istio.io', kind: 'AuthorizationPolicy', versions: ['v1', 'v1beta1'], storage: 'v1', spec: AuthorizationPolicySpec, specRequired: false },
  { group: 'security.istio.io', kind: 'PeerAuthentication', versions: ['v1', 'v1beta1'], storage: 'v1', spec: PeerAuthenticationSpec, specRequired: false },
  {
    group: 'security.istio.io',
    kind: 'RequestAuthentication',
    versions: ['v1', 'v1beta1'],
    storage: 'v1',
    spec: RequestAuthenticationSpec,
    specRequired: false,
  },
] as const;
