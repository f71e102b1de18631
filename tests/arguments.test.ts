import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  argumentsPreview,
  canonical,
  deliveredArguments,
  ignoredKeys,
  preview,
  sameArguments,
  sameJson,
} from '../src/arguments.ts'
import { argumentFilter, KEPT_TOOLS } from '../src/patterns.ts'

describe('arguments as the loop delivers them', () => {
  it('JSON text is parsed and frozen all the way down', () => {
    const args = deliveredArguments('{"a":{"b":[{"c":"d"}]},"e":[1,[2]]}') as {
      a: { b: { c: string }[] }
      e: unknown[]
    }
    expect(args).toEqual({ a: { b: [{ c: 'd' }] }, e: [1, [2]] })
    for (const value of [args, args.a, args.a.b, args.a.b[0], args.e, args.e[1]])
      expect(Object.isFrozen(value)).toBe(true)
  })

  it('no text is an empty object; malformed text is the text itself', () => {
    expect(deliveredArguments('')).toEqual({})
    expect(deliveredArguments('{"p":')).toBe('{"p":')
  })

  it('a string or number value is delivered as it is', () => {
    expect(deliveredArguments('"abc"')).toBe('abc')
    expect(deliveredArguments('42')).toBe(42)
    expect(deliveredArguments('null')).toBe(null)
  })
})

describe('the same arguments', () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
    ['a __proto__ key and another key', JSON.parse('{"__proto__":{}}'), { a: {} }, false],
    ['an object and a number in the same place', { a: {} }, { a: 1 }, false],
    ['a number and an object in the same place', { a: 1 }, { a: {} }, false],
    ['null and an object', { a: null }, { a: {} }, false],
    ['an object and null', { a: {} }, { a: null }, false],
    ['null and null', { a: null }, { a: null }, true],
    ['an array and an object', { a: [] }, { a: {} }, false],
    ['an object and an array', { a: {} }, { a: [] }, false],
    ['arrays of another length', [1, 2], [1, 2, 3], false],
    ['arrays in another order', [1, 2], [2, 1], false],
    ['objects with another key', { a: 1 }, { b: 1 }, false],
    ['objects with one more key', { a: 1 }, { a: 1, b: 2 }, false],
    ['a string and its JSON', '{"a":1}', { a: 1 }, false],
    ['1 and "1"', [1], ['1'], false],
    ['equal deep values', { a: [{ b: [1, { c: 'x' }] }] }, { a: [{ b: [1, { c: 'x' }] }] }, true],
    ['deep values that differ at the bottom', { a: [{ b: [1, { c: 'x' }] }] }, { a: [{ b: [1, { c: 'y' }] }] }, false],
  ])('%s', (_label, a, b, same) => {
    expect(sameJson(a, b)).toBe(same)
    expect(sameJson(b, a)).toBe(same)
  })

  it('large objects (32 keys or more) compare by their keys, in any order, every time', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`)
    const make = (order: string[], last = 0) =>
      Object.freeze(Object.fromEntries(order.map((k) => [k, k === 'k39' ? last : 1])))
    const a = make(keys)
    const b = make([...keys].reverse())
    const c = make(keys, 1)
    const d = Object.freeze({ ...make(keys.slice(0, 39)), other: 1 })
    // Compared again and again, as a run of calls is: the kept key lists must never answer for another object.
    for (let round = 0; round < 3; round++) {
      expect(sameJson(a, b)).toBe(true)
      expect(sameJson(b, c)).toBe(false)
      expect(sameJson(c, d)).toBe(false)
      expect(sameJson(d, a)).toBe(false)
      expect(sameJson(a, a)).toBe(true)
    }
  })

  it('matches JSON equality with keys sorted, for any JSON values', () => {
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
            )
          : value
    const json = fc.jsonValue({ maxDepth: 3 })
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(sorted(a)) === JSON.stringify(sorted(b)))
        expect(sameJson(a, structuredClone(a))).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})

describe('canonical form and preview', () => {
  it('keys sorted deeply by code unit, arrays in order, compact JSON', () => {
    expect(canonical({ b: [{ d: 1, c: 'é' }, null], a: '\n', B: true }, [])).toBe(
      '{"B":true,"a":"\\n","b":[{"c":"é","d":1},null]}',
    )
    expect(canonical([], [])).toBe('[]')
    expect(canonical({}, [])).toBe('{}')
    expect(canonical('x', [])).toBe('"x"')
  })

  it('a preview cuts at the cap and says how much is left', () => {
    expect(preview('abcdef', 6)).toBe('abcdef')
    expect(preview('abcdef', 4)).toBe('abcd… (2 more chars)')
    expect(argumentsPreview({ b: 2, a: 1 }, 5, [])).toBe('{"a":… (8 more chars)')
  })

  it('a preview never splits a surrogate pair', () => {
    expect(preview('a😀b', 2)).toBe('a… (3 more chars)')
    expect(preview('a😀b', 3)).toBe('a😀… (1 more chars)')
    expect(preview('😀a', 1)).toBe('… (3 more chars)')
    expect(preview('ab😀', 2)).toBe('ab… (2 more chars)')
  })
})

describe('arguments compared without the ignored ones (ignoreArguments)', () => {
  it.each<[string, unknown, unknown, boolean]>([
    [
      'only the ignored key differs',
      { command: 'npm test', description: 'Run' },
      { command: 'npm test', description: 'Again' },
      true,
    ],
    [
      'the ignored key is missing on one side',
      { command: 'npm test' },
      { command: 'npm test', description: 'Again' },
      true,
    ],
    [
      'a kept key differs',
      { command: 'npm test', description: 'Run' },
      { command: 'npm run', description: 'Run' },
      false,
    ],
    [
      'a kept key is missing on one side',
      { command: 'npm test', workdir: 'a' },
      { command: 'npm test', description: 'x' },
      false,
    ],
    ['one side has an extra kept key', { command: 'npm test' }, { command: 'npm test', workdir: 'a' }, false],
    ['the other side has an extra kept key', { command: 'npm test', workdir: 'a' }, { command: 'npm test' }, false],
    ['only ignored keys on both sides', { description: 'a' }, { description: 'b' }, true],
    ['a nested key of that name still counts', { opts: { description: 'a' } }, { opts: { description: 'b' } }, false],
    ['an array is compared whole', [{ description: 'a' }], [{ description: 'b' }], false],
    ['a string is compared whole', 'description', 'description', true],
    ['an object and an array', {}, [], false],
    ['null and an object', null, {}, false],
  ])('%s', (_label, a, b, same) => {
    expect(sameArguments(a, b, ['description'])).toBe(same)
    expect(sameArguments(b, a, ['description'])).toBe(same)
  })

  it('null on either side compares whole, without listing keys', () => {
    expect(sameArguments(null, null, ['description'])).toBe(true)
    expect(sameArguments(null, { description: 'a' }, ['description'])).toBe(false)
    expect(sameArguments({ description: 'a' }, null, ['description'])).toBe(false)
  })

  it('with nothing ignored, it is sameJson', () => {
    expect(sameArguments({ a: 1, d: 'x' }, { a: 1, d: 'y' }, [])).toBe(false)
    expect(sameArguments({ a: 1 }, { a: 1 }, [])).toBe(true)
  })

  it('a reminder names the ignored keys a call carries, in order, and quotes the rest', () => {
    expect(ignoredKeys({ why: 1, command: 'x', description: 2 }, ['description', 'why', 'other'])).toEqual([
      'description',
      'why',
    ])
    expect(ignoredKeys({ command: 'x' }, ['description'])).toEqual([])
    expect(ignoredKeys('text', ['description'])).toEqual([])
    expect(ignoredKeys(null, ['description'])).toEqual([])
    expect(ignoredKeys(['a', 'b'], ['0'])).toEqual([])
    expect(ignoredKeys({ description: 1 }, [])).toEqual([])
    expect(canonical({ b: 1, description: 'x', a: { description: 'kept' } }, ['description'])).toBe(
      '{"a":{"description":"kept"},"b":1}',
    )
    expect(argumentsPreview({ description: 'x', command: 'npm test' }, 500, ['description'])).toBe(
      '{"command":"npm test"}',
    )
  })

  it('per tool: every entry whose pattern matches applies; none matches, none applies', () => {
    const ignoredFor = argumentFilter(['bash.description', '*.justification', 'b*.note'])
    expect(ignoredFor('bash')).toEqual(['description', 'justification', 'note'])
    expect(ignoredFor('edit')).toEqual(['justification'])
    expect(argumentFilter(['bash.description'])('grep')).toEqual([])
    expect(argumentFilter([])('bash')).toEqual([])
  })

  it(
    'every call to a tool shares one list, for the last 64 tools asked ' +
      'about: entries are not stored again per call',
    () => {
      const ignoredFor = argumentFilter(Array.from({ length: 1_000 }, (_, i) => `*.arg${i}`))
      const bash = ignoredFor('bash')
      expect(bash).toHaveLength(1_000)
      expect(ignoredFor('bash')).toBe(bash)
      for (let i = 1; i < KEPT_TOOLS; i++) ignoredFor(`tool${i}`)
      expect(ignoredFor('bash')).toBe(bash)
      // One more tool than is kept: the one kept longest, bash, is listed afresh next time.
      ignoredFor('one-more')
      const again = ignoredFor('bash')
      expect(again).not.toBe(bash)
      expect(again).toEqual(bash)
      expect(KEPT_TOOLS).toBe(64)
    },
  )
})
