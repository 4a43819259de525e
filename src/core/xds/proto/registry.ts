// The Envoy v3 descriptors (compiled from the protos shipped in @grpc/grpc-js-xds by
// scripts/build-envoy-protos.mjs) plus the few Istio-only messages of istio.ts, decoded once on
// first use. Importing this module costs a ~650 KB string; building the registry (~0.2 s on a
// cold start) happens on the first check. The worker should import src/core/xds/proto with a
// dynamic import() so the descriptors stay out of its first chunk.
import { createFileRegistry, fromBinary, type DescExtension, type DescMessage, type FileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { base64Decode } from '@bufbuild/protobuf/wire';
import descriptors, { source } from './generated/envoyDescriptors.js';
import { istioFiles } from './istioSchemas.ts';

export interface EnvoyProtos {
  readonly registry: FileRegistry;
  /** Where the descriptors come from (package, version, files left out). */
  readonly source: typeof source;
  /** Time it took to decode the descriptors and build the registry, in ms. */
  readonly loadMs: number;
  /** PGV and Envoy annotation extensions, when the descriptors have them. */
  readonly ext: {
    fieldRules?: DescExtension;
    oneofRequired?: DescExtension;
    messageDisabled?: DescExtension;
    messageIgnored?: DescExtension;
    disallowedByDefault?: DescExtension;
    disallowedByDefaultEnum?: DescExtension;
  };
  /** Message by full name (no type URL prefix), or undefined. */
  message(typeName: string): DescMessage | undefined;
}

let loaded: EnvoyProtos | undefined;

/** The registry, built on first call. */
export function envoyProtos(): EnvoyProtos {
  if (loaded) return loaded;
  const t0 = performance.now();
  const set = fromBinary(FileDescriptorSetSchema, base64Decode(descriptors));
  const envoy = createFileRegistry(set);
  const istio = istioFiles(envoy);
  const registry = createFileRegistry(envoy, istio);
  const ext = (name: string) => registry.getExtension(name);
  const messages = new Map<string, DescMessage | undefined>();
  loaded = {
    registry,
    source,
    loadMs: performance.now() - t0,
    ext: {
      fieldRules: ext('validate.rules'),
      oneofRequired: ext('validate.required'),
      messageDisabled: ext('validate.disabled'),
      messageIgnored: ext('validate.ignored'),
      disallowedByDefault: ext('envoy.annotations.disallowed_by_default'),
      disallowedByDefaultEnum: ext('envoy.annotations.disallowed_by_default_enum'),
    },
    message(typeName) {
      if (!messages.has(typeName)) messages.set(typeName, registry.getMessage(typeName));
      return messages.get(typeName);
    },
  };
  return loaded;
}

/** True once the registry has been built (for timing the first load separately). */
export function envoyProtosLoaded(): boolean {
  return loaded !== undefined;
}
