// Vitest global setup: the Envoy descriptors (src/core/xds/proto/generated/, gitignored) are
// built by `npm install`; this rebuilds them when missing or stale (a new @grpc/grpc-js-xds,
// a changed build script), so `npx vitest run` works on any checkout that has node_modules.
import { buildEnvoyDescriptors } from '../../scripts/build-envoy-protos.mjs';

export default function setup(): void {
  const r = buildEnvoyDescriptors({ ifStale: true });
  if (r.built) console.log(`[setup] built the Envoy descriptors (${r.files} proto files, ${Math.round((r.bytes ?? 0) / 1024)} KB)`);
}
