// Names as Istio lists them in Telemetry and Sidecar messages (getNames in
// analyzers/telemetry/util.go and analyzers/sidecar/util.go): the plain names, sorted.
import type { Resource } from '../../../document/types.ts';

export function sortedNames(list: readonly Resource[]): string[] {
  return list.map((r) => r.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
