// Small helpers for indexes kept in nested maps. Large meshes are looked up by several keys
// (kind, namespace, name; label key and value): nested maps take the parsed strings as they
// are, where a joined key text would be built and hashed on every question.

/** A Map or a WeakMap: what the helpers below need of an index. */
interface Keyed<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The map under `key` in `m`, created empty on first use. */
export function mapAt<K, K2, V>(m: Keyed<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = m.get(key);
  if (!inner) m.set(key, (inner = new Map()));
  return inner;
}

/** The list under `key` in `m`, created empty on first use. */
export function listAt<K, V>(m: Keyed<K, V[]>, key: K): V[] {
  let list = m.get(key);
  if (!list) m.set(key, (list = []));
  return list;
}

/** The set under `key` in `m`, created empty on first use. */
export function setAt<K, V>(m: Keyed<K, Set<V>>, key: K): Set<V> {
  let set = m.get(key);
  if (!set) m.set(key, (set = new Set()));
  return set;
}

/**
 * Values computed from two strings (an apiVersion and a kind), kept up to `limit` of them: the
 * inputs come from files, so any number of distinct pairs can arrive.
 */
export class PairCache<V> {
  private readonly byFirst = new Map<string, Map<string, V>>();
  private size = 0;

  constructor(private readonly limit: number) {}

  get(first: string, second: string, compute: () => V): V {
    const inner = this.byFirst.get(first);
    const hit = inner?.get(second);
    if (hit !== undefined) return hit;
    const value = compute();
    if (this.size < this.limit) {
      (inner ?? mapAt(this.byFirst, first)).set(second, value);
      this.size++;
    }
    return value;
  }
}
