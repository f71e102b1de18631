import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'

/**
 * A text of 90 million NUL characters: JSON writes each as six (`\u0000`), 540 million in all, past
 * the longest string V8 makes. Quoting it whole would throw where cutting it first quotes 80.
 */
const huge = () => '\u0000'.repeat(90_000_000)

describe('quote: a value is quoted short whatever its size', () => {
  it('a text too long to write as JSON whole is cut first, then quoted to 80 characters', () => {
    expect(() => Config({ thresholds: [huge()] as never })).toThrow(
      `repeat-tool-reminder: thresholds must be integers >= 2 (got "${'\\u0000'.repeat(13)}\\…)`,
    )
  })

  it("an object's key too long to write as JSON whole is cut first too", () => {
    expect(() => Config({ thresholds: [{ [huge()]: 1 }] as never })).toThrow(
      `repeat-tool-reminder: thresholds must be integers >= 2 (got {"${'\\u0000'.repeat(13)}…)`,
    )
  })
})
