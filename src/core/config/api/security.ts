// Typed views of security.istio.io: AuthorizationPolicy, PeerAuthentication and
// RequestAuthentication (v1, which v1beta1 shares).
import { list, message, optional, raw, string, type Infer } from '../shape.ts';
import { specReader } from '../views.ts';
import { PolicyTargetReference, WorkloadSelector } from './common.ts';

const p = { proto: true };

export const Source = message(
  {
    principals: list(string),
    notPrincipals: list(string),
    requestPrincipals: list(string),
    notRequestPrincipals: list(string),
    namespaces: list(string),
    notNamespaces: list(string),
    ipBlocks: list(string),
    notIpBlocks: list(string),
    remoteIpBlocks: list(string),
    notRemoteIpBlocks: list(string),
    serviceAccounts: list(string),
    notServiceAccounts: list(string),
    trustDomains: list(string),
    notTrustDomains: list(string),
  },
  p,
);
export type Source = NonNullable<Infer<typeof Source>>;

export const Operation = message(
  {
    hosts: list(string),
    notHosts: list(string),
    ports: list(string),
    notPorts: list(string),
    methods: list(string),
    notMethods: list(string),
    paths: list(string),
    notPaths: list(string),
  },
  p,
);
export type Operation = NonNullable<Infer<typeof Operation>>;

export const Condition = message({ key: string, values: list(string), notValues: list(string) }, p);

export const Rule = message(
  {
    from: list(message({ source: Source }, p)),
    to: list(message({ operation: Operation }, p)),
    when: list(Condition),
  },
  p,
);
export type Rule = NonNullable<Infer<typeof Rule>>;

export const AuthorizationPolicySpec = message(
  {
    selector: WorkloadSelector,
    targetRef: PolicyTargetReference,
    targetRefs: list(PolicyTargetReference),
    rules: list(Rule),
    action: string,
    provider: message({ name: string }, p),
  },
  p,
);
export type AuthorizationPolicySpec = Infer<typeof AuthorizationPolicySpec> & object;
export const authorizationPolicy = specReader(AuthorizationPolicySpec);

export const PeerAuthenticationSpec = message(
  {
    selector: WorkloadSelector,
    mtls: message({ mode: string }, p),
    portLevelMtls: raw,
  },
  p,
);
export const peerAuthentication = specReader(PeerAuthenticationSpec);

export const JWTRule = message(
  {
    issuer: string,
    audiences: list(string),
    jwksUri: string,
    jwks: string,
    fromHeaders: list(message({ name: string, prefix: string }, p)),
    fromParams: list(string),
    fromCookies: list(string),
    outputPayloadToHeader: string,
    forwardOriginalToken: optional(raw),
    outputClaimToHeaders: list(message({ header: string, claim: string }, p)),
    timeout: optional(string),
    spaceDelimitedClaims: list(string),
  },
  p,
);

export const RequestAuthenticationSpec = message(
  {
    selector: WorkloadSelector,
    targetRef: PolicyTargetReference,
    targetRefs: list(PolicyTargetReference),
    jwtRules: list(JWTRule),
  },
  p,
);
export const requestAuthentication = specReader(RequestAuthenticationSpec);
