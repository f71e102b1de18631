import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compile, matches, toolFilter } from '../src/patterns.ts'

/** The reference: whole-name match where `*` is any run of characters, by trying every split. */
function reference(pattern: string, name: string): boolean {
  if (pattern === '') return name === ''
  if (pattern[0] === '*')
    return [...Array(name.length + 1).keys()].some((i) => reference(pattern.slice(1), name.slice(i)))
  return name[0] === pattern[0] && reference(pattern.slice(1), name.slice(1))
}

const match = (pattern: string, name: string) => matches(compile(pattern), name)

describe('whole-name patterns', () => {
  it.each<[string, string, boolean]>([
    ['read_file', 'read_file', true],
    ['read_file', 'read_files', false],
    ['read_file*', 'read_file', true],
    ['read_file*', 'read_file_range', true],
    ['*_file', 'read_file', true],
    ['*_file', 'read_files', false],
    ['mcp_*', 'mcp_', true],
    ['mcp_*', 'mcp', false],
    ['*', '', true],
    ['', '', true],
    ['', 'a', false],
    ['a**b', 'ab', true],
    ['*ab*x', 'axbx', false],
    ['*ab*x', 'abx', true],
    ['*aab*', 'aaab', true],
    ['*abab*', 'abaabab', true],
    ['*aa*aa*', 'aaa', false],
    ['*aa*aa*', 'aaaa', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['ab*ba', 'aba', false],
    ['pr.be', 'probe', false],
    ['x*y*z', 'xzyz', true],
    ['*aabaab*', 'aabaaabaab', true],
    ['*abab*', 'abaababab', true],
    ['*aaab*', 'aaaab', true],
    ['*abcabd*', 'abcabcabd', true],
    ['*aabb*', 'aababb', false],
    ['a*ab*b', 'aab', false],
    ['a*ab*b', 'aabb', true],
    ['x*aabb*', 'xaababbaabb', true],
  ])('%j on %j: %s', (pattern, name, expected) => {
    expect(match(pattern, name)).toBe(expected)
    expect(reference(pattern, name)).toBe(expected)
  })

  it('agrees with trying every split, for any pattern and name over a small alphabet', () => {
    const text = (max: number) => fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: max })
    // Middle pieces long enough that KMP has to fall back inside a piece (aabaab, abab, ...).
    const pattern = fc.array(fc.oneof(text(6), fc.constant('*')), { maxLength: 5 }).map((parts) => parts.join(''))
    fc.assert(
      fc.property(pattern, text(14), (p, name) => {
        expect(match(p, name)).toBe(reference(p, name))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('the include/exclude filter', () => {
  it('empty include tracks every tool', () => {
    expect(toolFilter([], [])('anything')).toBe(true)
  })

  it('a tool is tracked when any include pattern matches it', () => {
    const tracked = toolFilter(['grep', 'read_*'], [])
    expect(['grep', 'read_file', 'glob'].map(tracked)).toEqual([true, true, false])
  })

  it('exclude wins over include, and any exclude pattern excludes', () => {
    const tracked = toolFilter(['*'], ['todo_*', 'bash'])
    expect(['grep', 'todo_write', 'bash'].map(tracked)).toEqual([true, false, false])
  })
})
