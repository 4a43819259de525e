// Strict checking of Envoy resources (proto3 JSON, as in /config_dump) against the real Envoy v3
// protos shipped in @grpc/grpc-js-xds. See check.ts for the rules, validate.ts for the
// protoc-gen-validate constraints and istioSchemas.ts for the Istio-only allow-list.
//
//   checkEnvoyResource(cluster, 'type.googleapis.com/envoy.config.cluster.v3.Cluster')
//   checkEnvoyResource({ '@type': '…Listener', … })          // type from @type
//   checkConfigDump(dump)                                      // every resource of a dump
//
// The descriptors are decoded on the first check (~0.2–0.3 s cold). In the worker, import this
// module with a dynamic import() so that the ~650 KB of descriptors load only when needed.
export { checkConfigDump, checkEnvoyResource, formatProblems, TYPE_URL_PREFIX, type CheckOptions, type ProtoProblem, type ProtoProblemCode } from './check.ts';
export { ENVOY_UNSHIPPED_TYPED_CONFIGS, ISTIO_TYPED_CONFIGS, allowedTypedConfig, type IstioTypedConfig } from './istioSchemas.ts';
export { envoyProtos, envoyProtosLoaded, type EnvoyProtos } from './registry.ts';
