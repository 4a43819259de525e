// Where the EnvoyFilter engine gets the Envoy message descriptors from. The one module that
// imports the registry (and with it the ~650 KB descriptor module), so that a build can swap in
// a stand-in that loads them on demand, the way vite.config.ts does for the CEL library.
import type { DescMessage } from '@bufbuild/protobuf';
import { envoyProtos } from '../proto/registry.ts';

/** The message `typeName` (full name, no type URL prefix), or undefined when the descriptors lack it. */
export function envoyMessage(typeName: string): DescMessage | undefined {
  return envoyProtos().message(typeName);
}
