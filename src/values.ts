/**
 * Helpers on plain values that every layer uses: whether a value is a JSON object, a map's value
 * made the first time it is asked for, and the marker of text already written that the iterative
 * value writers (`canonical`, `show`) keep on their work stacks.
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

/**
 * Text already written, waiting on the work stack of a writer that walks a value without recursion:
 * told apart from the values on the same stack by its class, as no JSON value is one.
 */
export class Written {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}
