// Typed, cached views of resource bodies: each resource's spec is read through its shape
// once, on first use, and shared by every reader of that resource.
import type { Resource } from '../model/types.ts';
import type { Fields, MessageOf, MessageShape } from './shape.ts';

/** A reader of `body.spec` through `shape` (the zero message when spec is absent or not a mapping). */
export function specReader<F extends Fields>(shape: MessageShape<F>): (r: Resource) => MessageOf<F> {
  return bodyReader(shape, 'spec');
}

/** A reader of one top-level field of the body (`spec`, `status`, `data`, `webhooks`, …). */
export function bodyReader<F extends Fields>(shape: MessageShape<F>, field: string): (r: Resource) => MessageOf<F> {
  const cache = new WeakMap<object, MessageOf<F>>();
  return (r) => {
    let v = cache.get(r.body);
    if (v === undefined) {
      v = shape.readOrEmpty(Object.prototype.hasOwnProperty.call(r.body, field) ? r.body[field] : undefined);
      cache.set(r.body, v);
    }
    return v;
  };
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
