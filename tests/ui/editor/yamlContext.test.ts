import { describe, expect, it } from 'vitest';
import { keyAt, yamlContextAt } from '../../../src/ui/editor/yamlContext.ts';

const VS = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts: [reviews]
  http:
  - route:
    - destination:
        host: reviews
      weight: 90
    timeout: 5s
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: reviews
spec:
  host: reviews
  trafficPolicy:
    tls:
      mode: 
`;

/** 1-based line of the first line containing `s`, and the column after it. */
function at(s: string, text = VS): [number, number] {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(s));
  return [i + 1, (lines[i] as string).indexOf(s) + s.length + 1];
}

describe('yamlContextAt', () => {
  it('finds the kind and the path of a value', () => {
    const [l, c] = at('      mode: ');
    expect(yamlContextAt(VS, l, c)).toMatchObject({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      path: ['spec', 'trafficPolicy', 'tls', 'mode'],
      at: 'value',
    });
  });
  it('walks list items, compact or indented', () => {
    const [l, c] = at('      weight: 90');
    expect(yamlContextAt(VS, l, c - 10)).toMatchObject({ path: ['spec', 'http', '[]', 'route', '[]'], at: 'key', siblings: ['destination'] });
    const [l2, c2] = at('        host: reviews');
    expect(yamlContextAt(VS, l2, c2 - 13)).toMatchObject({ path: ['spec', 'http', '[]', 'route', '[]', 'destination'], at: 'key' });
  });
  it('gives the mapping of a new key on an empty line, with the keys already there', () => {
    const text = VS.replace('    timeout: 5s\n', '    timeout: 5s\n    \n');
    const lines = text.split('\n');
    const l = lines.indexOf('    ') + 1;
    expect(yamlContextAt(text, l, 5)).toMatchObject({ path: ['spec', 'http', '[]'], at: 'key', siblings: ['timeout', 'route'] });
  });
  it('gives a new list item its list', () => {
    const text = VS.replace('    timeout: 5s\n', '    timeout: 5s\n  - ma\n');
    const [l, c] = at('  - ma', text);
    expect(yamlContextAt(text, l, c)).toMatchObject({ path: ['spec', 'http', '[]'], at: 'key', prefix: 'ma' });
  });
});

describe('keyAt', () => {
  it('gives the path of the key under the cursor', () => {
    const [l, c] = at('    timeout');
    expect(keyAt(VS, l, c - 2)).toMatchObject({ key: 'timeout', path: ['spec', 'http', '[]', 'timeout'] });
    expect(keyAt(VS, l, c + 3)).toBeUndefined();
  });
});
