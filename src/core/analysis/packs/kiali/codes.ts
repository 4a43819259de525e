// What a KIA code looks like: a module of its own, so the page's worker, the CLI and the
// suppression quick fix can tell Kiali's codes from Istio's without loading the pack.

/** `KIA` and four digits, as Kiali numbers its checks (models/istio_validation.go). */
export function isKialiCode(code: string): boolean {
  return /^KIA\d{4}$/.test(code);
}
