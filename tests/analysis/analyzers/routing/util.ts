// Small helpers for the routing analyzer tests.

/** 1-based line of the first line containing `needle` (after the `after`-th occurrence of `anchor`, when given). */
export function lineOf(text: string, needle: string, anchor?: string): number {
  const all = text.split('\n');
  let start = 0;
  if (anchor !== undefined) start = all.findIndex((l) => l.includes(anchor));
  const i = all.findIndex((l, n) => n >= start && l.includes(needle));
  if (i < 0) throw new Error(`not found: ${needle}`);
  return i + 1;
}

export const vs = (ns: string, name: string, body: string) => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${body}`;
