// The schema walk keeps a copy of each schema node it meets (by identity) and makes a
// finding's path only when it reports one: walking the same schema again, over other values,
// must give exactly what a first walk gives, with each finding at its own path.
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { schemaFindings } from '../../src/core/validation/schema.ts';
import { makeResource } from '../../src/core/document/resources.ts';
import { apiPath, editorPath, walk, type WalkResult } from '../../src/core/validation/schema/walk.ts';
import { describe as describeShape, int, list, map, message, string } from '../../src/core/config/shape.ts';
import type { Schema } from '../../src/core/config/shape.ts';

function check(yaml: string): string[] {
  return schemaFindings(makeResource(jsyaml.load(yaml) as Record<string, unknown>, undefined)).map((f) => `${f.path ?? ''} | ${f.message}`);
}

const Item = message({ name: string, port: describeShape(int, { minimum: 1, maximum: 65535 }) }, { required: ['name'] });
const Root = message({ items: list(Item), labels: map(string), nested: message({ deep: list(Item) }) });

function run(value: unknown, schema: Schema = Root.schema as Schema): string[] {
  const out: WalkResult = { structural: [], cel: [] };
  walk(value, schema, { parent: undefined, seg: 'spec' }, out);
  return [...out.structural, ...out.cel].map((f) => `${apiPath(f.path)} | ${editorPath(f.path)} | ${f.message}`);
}

describe('schema walk: paths of findings', () => {
  it('gives each finding its own path, after siblings and deeper branches were walked', () => {
    const value = {
      items: [{ name: 'a', port: 80 }, { port: 0 }, { name: 'c', port: 'x', extra: 1 }],
      labels: { ok: 'v', 'a.b': 3 },
      nested: { deep: [{ name: 'd' }, { name: 'e', port: 70000 }] },
    };
    const expected = [
      'spec.items[1].port | spec.items[1].port | spec.items[1].port: Invalid value: 0: spec.items[1].port in body should be greater than or equal to 1',
      'spec.items[1].name | spec.items[1].name | spec.items[1].name: Required value',
      'spec.items[2].port | spec.items[2].port | spec.items[2].port: Invalid value: "string": spec.items[2].port in body must be of type integer: "string"',
      'spec.items[2].extra | spec.items[2].extra | unknown field "spec.items[2].extra"',
      'spec.labels[a.b] | spec.labels["a.b"] | spec.labels[a.b]: Invalid value: "integer": spec.labels[a.b] in body must be of type string: "integer"',
      'spec.nested.deep[1].port | spec.nested.deep[1].port | spec.nested.deep[1].port: Invalid value: 70000: spec.nested.deep[1].port in body should be less than or equal to 65535',
    ];
    expect(run(value)).toEqual(expected);
    // The second walk of the same schema objects reads the kept copies.
    expect(run(value)).toEqual(expected);
    expect(run({ items: [{ name: 'ok', port: 1 }], labels: {}, nested: {} })).toEqual([]);
    expect(run({ items: 'no' })).toEqual(['spec.items | spec.items | spec.items: Invalid value: "string": spec.items in body must be of type array: "string"']);
  });

  it('gives the same findings for a resource validated again, and for an equal resource', () => {
    const yaml =
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r, labelz: 1}\nspec:\n  hosts: [a]\n  http:\n  - route:\n    - destination: {host: a, port: {number: 0}}\n      weight: -1\n    - destination: {host: b}\n      wieght: 3\n';
    const first = check(yaml);
    expect(first).toEqual(['metadata.labelz | unknown field "metadata.labelz"', 'spec.http[0].route[1].wieght | unknown field "spec.http[0].route[1].wieght"']);
    expect(check(yaml)).toEqual(first);
  });

  it('validates a body kind (ConfigMap) the same way each time', () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n';
    const first = check(yaml);
    expect(first).toEqual(['data.a | data[a]: Invalid value: "integer": data[a] in body must be of type string: "integer"']);
    expect(check(yaml)).toEqual(first);
    expect(check('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n')).toEqual([]);
  });
});
