// Building KIA findings from the catalog, as Kiali's models.Build does.
import { KIALI_CATALOG, type KialiCheckDescriptor } from './catalog.ts';
import type { KialiCheck, KialiSeverity } from './types.ts';

const BY_CHECK_ID = new Map<string, KialiCheckDescriptor>(KIALI_CATALOG.map((d) => [d.checkId, d]));
const BY_CODE = new Map<string, KialiCheckDescriptor>(KIALI_CATALOG.map((d) => [d.code, d]));

/** The catalog entry of a KIA code. */
export function kialiDescriptor(code: string): KialiCheckDescriptor | undefined {
  return BY_CODE.get(code);
}

/** Kiali's path (`spec/http[0]/route[1]`) as a field path (`spec.http[0].route[1]`). */
export function kialiFieldPath(path: string): string {
  return path.replaceAll('/', '.');
}

/** A finding for `checkId` at `path`, with the catalog's code, message and severity (unless given). */
export function buildCheck(checkId: string, path: string, severity?: KialiSeverity): KialiCheck {
  const d = BY_CHECK_ID.get(checkId);
  if (!d) throw new Error(`unknown Kiali check id: ${checkId}`);
  return { code: d.code, checkId, severity: severity ?? d.severity, message: d.message, path, fieldPath: kialiFieldPath(path) };
}

/** `<code> <message>`, as Kiali's tests compare it. */
export function fullMessage(check: Pick<KialiCheck, 'code' | 'message'>): string {
  return `${check.code} ${check.message}`;
}
