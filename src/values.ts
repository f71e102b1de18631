/**
 * Two helpers on plain values that every layer uses: whether a value is a JSON object, and a
 * map's value made the first time it is asked for.
 */

/** Whether a value is a JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What {@link kept} needs of a map: a `Map` or a `WeakMap`. */
interface Keeps<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): unknown
}

/** The value `map` holds for `key`; when it holds none, `make()`'s, kept there for the next ask. */
export function kept<K, V>(map: Keeps<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    map.set(key, value)
  }
  return value
}
