// The Kiali pack's findings as the workbench's diagnostics: located on the field Kiali's path
// names, with Kiali's level, a link to Kiali's page about the code, the workbench's
// suppressions and Kiali's own ignores applied, and reported once where istioctl's analyzers
// report the same problem on the same field.
import type { Diagnostic, Level } from '../../../document/types.ts';
import type { ConfigView } from '../../../config/configView.ts';
import { locateResourceField, messageBehind, rememberMessage, type DocumentLookup } from '../../render.ts';
import { clearLocateCaches } from '../../../document/locate.ts';
import { friendlyName } from '../../origin.ts';
import { suppressedBySettings, type Suppression } from '../../suppress.ts';
import { KIALI_DEFAULT_IGNORE, stripIgnoredChecks } from './ignore.ts';
import { KIALI_CHECKERS, runKialiPack } from './index.ts';
import type { KialiContextOverrides } from './context.ts';
import type { KialiSeverity } from './types.ts';
import { kialiDescriptor } from './messages.ts';

/** Kiali's severities as our levels: `unknown` (neither error nor warning) is Info. */
export function kialiLevel(s: KialiSeverity): Level {
  return s === 'error' ? 'Error' : s === 'warning' ? 'Warning' : 'Info';
}

/**
 * Kiali's documentation of a code: kiali.io's validations page, at the heading for the code
 * (`KIA0301 - <message>`, which the site turns into `#kia0301---<words>`). Where the page's
 * heading words differ from the catalog's message the browser lands at the top of the page.
 */
export function kialiDocUrl(code: string): string {
  let url = DOC_URLS.get(code);
  if (url === undefined) DOC_URLS.set(code, (url = docUrlOf(code)));
  return url;
}

/** kialiDocUrl per code (thousands of findings share a few codes). */
const DOC_URLS = new Map<string, string>();

function docUrlOf(code: string): string {
  const d = kialiDescriptor(code);
  const words = d ? ` - ${d.message}` : '';
  const anchor = `${code}${words}`
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
  return `https://kiali.io/docs/features/validations/#${anchor}`;
}

/**
 * KIA codes whose finding istioctl's analyzers also give, as the IST code they give, on the
 * same object and field: the workbench shows istioctl's and names Kiali's code in it.
 * (VirtualService destination host, gateway and subset not found; a Service port name without
 * a protocol; a Gateway or Sidecar selector matching no workload; Sidecars without selectors,
 * or with selectors sharing a workload.)
 */
export const REPORTED_BY_ISTIO: Readonly<Record<string, string>> = {
  KIA1101: 'IST0101',
  KIA1102: 'IST0101',
  KIA1107: 'IST0101',
  KIA0601: 'IST0118',
  KIA0302: 'IST0101',
  KIA0004: 'IST0101',
  KIA0002: 'IST0111',
  KIA0003: 'IST0110',
};

export interface KialiDiagnosticsOptions {
  /** The workbench's `CODE=Kind ns/name` suppressions, parsed. */
  suppressions?: readonly Suppression[];
  /** Keep only findings on objects of this namespace. */
  namespaceFilter?: string;
  /** Kiali's `validations.ignore` codes (default KIA1301, as Kiali's). */
  ignore?: readonly string[];
  overrides?: KialiContextOverrides;
}

/**
 * One field path within the other, or either naming the whole object (none, or istioctl's
 * `metadata.name` for a message about the object as a whole).
 */
function sameField(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a === 'metadata.name' || b === 'metadata.name') return true;
  return a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);
}

/**
 * The pack's diagnostics, and istioctl's with the KIA codes they stand for: each Kiali finding
 * that istioctl's analyzers report too on the same field is left out, and istioctl's
 * diagnostic names it in `alsoReportedAs` (a copy; the input list is not changed).
 */
export function kialiDiagnostics(
  view: ConfigView,
  lookup: DocumentLookup,
  istio: readonly Diagnostic[],
  o: KialiDiagnosticsOptions = {},
): { kiali: Diagnostic[]; istio: Diagnostic[] } {
  const ignore = o.ignore ?? KIALI_DEFAULT_IGNORE;
  // A checker whose every code is ignored could only add checks that are dropped: not run.
  const checkers = KIALI_CHECKERS.filter((c) => c.codes.some((code) => !ignore.includes(code)));
  const validations = stripIgnoredChecks(runKialiPack(view, o.overrides ?? {}, checkers, { findingsOnly: true }), ignore);
  const kiali: Diagnostic[] = [];
  const alsoAs = new Map<Diagnostic, string[]>();
  // istioctl's messages by code and resource, for the KIA codes that have a twin (looked up per finding).
  const twins = new Map<string, Diagnostic[]>();
  const twinCodes = new Set(Object.values(REPORTED_BY_ISTIO));
  for (const d of istio)
    if (twinCodes.has(d.code) && d.resourceKey !== undefined) {
      const k = `${d.code}\u0000${d.resourceKey}`;
      const l = twins.get(k);
      if (l) l.push(d);
      else twins.set(k, [d]);
    }
  for (const v of validations) {
    const r = v.resource;
    if (o.namespaceFilter !== undefined && v.object.namespace !== o.namespaceFilter) continue;
    const origin = r ? friendlyName(r) : `${v.object.kind} ${v.object.namespace}/${v.object.name}`;
    for (const c of v.checks) {
      if (o.suppressions && suppressedBySettings(o.suppressions, c.code, origin)) continue;
      const fieldPath = c.fieldPath || undefined;
      const twin = REPORTED_BY_ISTIO[c.code];
      const same = twin && r ? twins.get(`${twin}\u0000${r.key}`)?.find((d) => sameField(d.fieldPath, fieldPath)) : undefined;
      if (same) {
        const list = alsoAs.get(same) ?? [];
        if (!list.includes(c.code)) list.push(c.code);
        alsoAs.set(same, list);
        continue;
      }
      // A check on the object as a whole (no path, or Kiali's `workload` pseudo-path) points at its name.
      const at = r?.source ? locateResourceField(r, fieldPath === undefined || fieldPath === 'workload' ? 'metadata.name' : fieldPath, lookup) : undefined;
      kiali.push({
        level: kialiLevel(c.severity),
        code: c.code,
        message: c.message,
        origin,
        resourceKey: r?.key,
        file: r?.source?.file,
        // The field's own line (istioctl's convention, the resource's line for a map or list, is for IST messages).
        line: at?.line !== undefined ? (at.range?.startLine ?? at.line) : undefined,
        range: at?.range,
        fieldPath,
        analyzer: `kiali ${c.checkId}`,
        docUrl: kialiDocUrl(c.code),
        cluster: r?.cluster,
        derivedFrom: r?.derivedFrom ? `${r.derivedFrom.kind} ${r.derivedFrom.namespace}/${r.derivedFrom.name}` : undefined,
        source: 'analyzer',
      });
    }
  }
  const out =
    alsoAs.size === 0
      ? [...istio]
      : istio.map((d) => {
          const codes = alsoAs.get(d);
          if (!codes) return d;
          const copy = { ...d, alsoReportedAs: codes };
          // The quick fixes find a diagnostic's analyzer message through it.
          const behind = messageBehind(d);
          if (behind) rememberMessage(copy, behind);
          return copy;
        });
  kiali.sort((a, b) => ((a.file ?? '') !== (b.file ?? '') ? ((a.file ?? '') < (b.file ?? '') ? -1 : 1) : (a.line ?? 0) - (b.line ?? 0)));
  // As after istioctl's messages (AnalysisSession.run): the position caches pin document texts.
  clearLocateCaches();
  return { kiali, istio: out };
}
