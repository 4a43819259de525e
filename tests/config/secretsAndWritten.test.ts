import { describe, expect, it } from 'vitest';
import type { Resource } from '../../src/core/document/types.ts';
import { secretData } from '../../src/core/config/secrets.ts';
import { writtenAt } from '../../src/core/config/views.ts';

const resource = (body: Record<string, unknown>): Resource => ({
  key: 'v1/Secret/ns/s',
  kindId: 'v1/Secret',
  gvk: { group: '', version: 'v1', kind: 'Secret' },
  namespace: 'ns',
  name: 's',
  labels: Object.create(null),
  annotations: Object.create(null),
  body,
});

describe('secretData', () => {
  it('decodes base64 values; a null value is empty and no data is no keys', () => {
    const data = secretData(resource({ data: { cert: 'aGk=', empty: null } }));
    expect([...(data?.keys() ?? [])]).toEqual(['cert', 'empty']);
    expect(new TextDecoder().decode(data?.get('cert'))).toBe('hi');
    expect(data?.get('empty')?.length).toBe(0);
    expect(secretData(resource({}))?.size).toBe(0);
    expect(secretData(resource({ data: null }))?.size).toBe(0);
  });

  it('is undefined for data Kubernetes could not load', () => {
    expect(secretData(resource({ data: 'x' }))).toBeUndefined();
    expect(secretData(resource({ data: ['aGk='] }))).toBeUndefined();
    expect(secretData(resource({ data: { cert: 'not base64!' } }))).toBeUndefined();
    expect(secretData(resource({ data: { cert: { toString: 'x' } } }))).toBeUndefined();
    expect(secretData(resource({ data: { cert: 5 } }))).toBeUndefined();
  });
});

describe('writtenAt', () => {
  const r = resource({
    spec: {
      selector: { matchLabels: {}, odd: 'x' },
      list: [{ value: null }, 'item'],
      toString: { a: 1 },
    },
  });

  it('tells absent, null, maps, lists and scalars apart', () => {
    expect(writtenAt(r, ['spec', 'selector', 'matchLabels'])).toBe('map');
    expect(writtenAt(r, ['spec', 'selector', 'odd'])).toBe('scalar');
    expect(writtenAt(r, ['spec', 'list'])).toBe('list');
    expect(writtenAt(r, ['spec', 'list', 0, 'value'])).toBe('null');
    expect(writtenAt(r, ['spec', 'list', 1])).toBe('scalar');
    expect(writtenAt(r, ['spec', 'toString'])).toBe('map');
  });

  it('is absent off the written tree, whatever the path crosses', () => {
    expect(writtenAt(r, ['spec', 'selector', 'missing'])).toBe('absent');
    expect(writtenAt(r, ['spec', 'list', 2])).toBe('absent');
    expect(writtenAt(r, ['spec', 'list', 'length'])).toBe('absent');
    expect(writtenAt(r, ['spec', 'selector', 0])).toBe('absent');
    expect(writtenAt(r, ['spec', 'selector', 'odd', 'x'])).toBe('absent');
    expect(writtenAt(r, ['spec', 'constructor'])).toBe('absent');
    expect(writtenAt(r, ['spec', '__proto__'])).toBe('absent');
  });
});
