import { describe, expect, it } from 'vitest';
import { splitDocuments } from '../../src/core/document/split.ts';
import { fieldRangeMap } from '../../src/core/document/locate.ts';

const text = [
  'apiVersion: networking.istio.io/v1', // 1
  'kind: VirtualService', // 2
  'metadata:', // 3
  '  name: reviews', // 4
  'spec:', // 5
  '  hosts: [reviews]', // 6
  '  http:', // 7
  '  - route:', // 8
  '    - destination:', // 9
  '        host: reviews', // 10
  '        subset: v1', // 11
  '---', // 12
  'apiVersion: v1', // 13
  'kind: List', // 14
  'items:', // 15
  '- apiVersion: v1', // 16
  '  kind: Service', // 17
  '  metadata:', // 18
  '    name: a', // 19
].join('\n');

describe('field-path map', () => {
  const docs = splitDocuments('f.yaml', text);

  it('maps every field path of a document to its key and value range', () => {
    const m = fieldRangeMap(docs[0]!);
    expect(m.get('spec.http[0].route[0].destination.host')).toEqual({ startLine: 10, startCol: 9, endLine: 10, endCol: 22 });
    expect(m.get('spec.hosts[0]')).toEqual({ startLine: 6, startCol: 11, endLine: 6, endCol: 18 });
    expect(m.get('spec.http')?.startLine).toBe(7);
    expect(m.get('metadata.name')).toEqual({ startLine: 4, startCol: 3, endLine: 4, endCol: 16 });
  });

  it('maps the fields of one item of a List document, with file lines', () => {
    const m = fieldRangeMap(docs[1]!, 0);
    expect(m.get('metadata.name')).toEqual({ startLine: 19, startCol: 5, endLine: 19, endCol: 12 });
    expect(m.get('kind')?.startLine).toBe(17);
  });
});
