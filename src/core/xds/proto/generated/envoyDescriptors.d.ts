// Types of the module scripts/build-envoy-protos.mjs writes next to this file (gitignored):
// the Envoy v3 protos shipped in @grpc/grpc-js-xds as a binary FileDescriptorSet.

/** Where the descriptors come from. */
export declare const source: {
  /** npm package the .proto files come from, and its version. */
  package: string;
  version: string;
  /** buf version that compiled them. */
  buf: string;
  /** Files compiled as targets (their imports come along). */
  files: number;
  /** Size of the binary FileDescriptorSet. */
  bytes: number;
  /** Shipped Envoy files left out because they import protos the package does not ship. */
  omitted: string[];
};

/** The FileDescriptorSet, base64. */
declare const descriptors: string;
export default descriptors;
