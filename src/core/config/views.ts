// Typed, cached views of resource bodies: each resource's spec is read through its shape
// once, on first use, and shared by every reader of that resource.
import type { Resource } from '../document/types.ts';
import type { Fields, MessageOf, MessageShape } from './shape.ts';

/** A reader of one top-level field of resource bodies through a shape, with a cache of its views. */
export interface BodyReader<F extends Fields> {
  (r: Resource): MessageOf<F>;
  /**
   * Records the view of a field value that was built along with the value (a derived pod's
   * spec, from its template's view): it must be what the reader would build, and the reader
   * then returns it instead of reading the value again.
   */
  seed(raw: object, view: MessageOf<F>): void;
}

/** A reader of `body.spec` through `shape` (the zero message when spec is absent or not a mapping). */
export function specReader<F extends Fields>(shape: MessageShape<F>): BodyReader<F> {
  return bodyReader(shape, 'spec');
}

/** A reader of one top-level field of the body (`spec`, `status`, `data`, `webhooks`, …). */
export function bodyReader<F extends Fields>(shape: MessageShape<F>, field: string): BodyReader<F> {
  const cache = new WeakMap<object, MessageOf<F>>();
  // The last body asked about and its view: readers often ask about one resource several
  // times in a row, and a WeakMap lookup costs more than a comparison.
  let lastBody: object | undefined;
  let lastView: MessageOf<F> | undefined;
  const read = (r: Resource): MessageOf<F> => {
    if (r.body === lastBody) return lastView as MessageOf<F>;
    const raw = Object.hasOwn(r.body, field) ? r.body[field] : undefined;
    // Keyed by the field's own object when it has one: the pods derived from one controller
    // share their spec, and so share its view (the view depends on nothing else).
    const key = typeof raw === 'object' && raw !== null ? raw : r.body;
    let v = cache.get(key);
    if (v === undefined) {
      v = shape.readOrEmpty(raw);
      cache.set(key, v);
    }
    lastBody = r.body;
    lastView = v;
    return v;
  };
  return Object.assign(read, { seed: (raw: object, view: MessageOf<F>) => void cache.set(raw, view) });
}

/** A reader of the whole body through `shape`. */
export function objectReader<F extends Fields>(shape: MessageShape<F>): (r: Resource) => MessageOf<F> {
  const cache = new WeakMap<object, MessageOf<F>>();
  return (r) => {
    let v = cache.get(r.body);
    if (v === undefined) {
      v = shape.readOrEmpty(r.body);
      cache.set(r.body, v);
    }
    return v;
  };
}

/** What a resource body holds at a path: nothing, or the kind of value written there. */
export type Written = 'absent' | 'null' | 'map' | 'list' | 'scalar';

/**
 * What is written at a path of the body (`['spec', 'selector', 'matchLabels']`; numbers index
 * lists). Typed views read an absent field, a null and a zero value alike; this tells them
 * apart where it matters for where a message points, never for what it says.
 */
export function writtenAt(r: Resource, path: readonly (string | number)[]): Written {
  let v: unknown = r.body;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!Array.isArray(v) || seg < 0 || seg >= v.length) return 'absent';
      v = v[seg];
    } else {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, seg)) return 'absent';
      v = (v as Record<string, unknown>)[seg];
    }
  }
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : 'scalar';
}

/**
 * Whether a field is written (present and not null) in the resource as parsed, whatever its
 * value. Views give absent and zero values alike; this is for the few places where presence
 * decides, such as which field a message points at.
 */
export function isWritten(r: Resource, path: ReadonlyArray<string | number>): boolean {
  const w = writtenAt(r, path);
  return w !== 'absent' && w !== 'null';
}

/**
 * Whether the value at a path is a mapping. A list item of another type reads as an empty
 * message in a view; this tells such an item from a written one where that matters.
 */
export function isMappingAt(r: Resource, path: ReadonlyArray<string | number>): boolean {
  return writtenAt(r, path) === 'map';
}
