import { describe, expect, it } from 'vitest'
import { FAILED, Problem } from '../src/problem.ts'

describe('Problem.of: any error as a problem', () => {
  it('a problem from another copy of the package (the built plugin a host loaded) keeps its what and where', () => {
    const foreign = Object.assign(new Error('repeat-tool-reminder: thresholds must be integers >= 2 (got 1)'), {
      what: 'thresholds must be integers >= 2 (got 1)',
      where: ['repeat-tool-reminder'],
      status: FAILED,
    })
    const problem = Problem.of(foreign)
    expect([problem.message, problem.status]).toEqual([foreign.message, FAILED])
    expect(problem.at('repeat-tool-reminder demo').message).toBe(
      'repeat-tool-reminder demo: thresholds must be integers >= 2 (got 1)',
    )
  })

  it('any other error is its message, with the status given', () => {
    for (const error of [new Error('boom'), Object.assign(new Error('boom'), { what: 'x', where: 'y', status: 1 })])
      expect([Problem.of(error, FAILED).message, Problem.of(error, FAILED).where]).toEqual(['boom', []])
  })
})
