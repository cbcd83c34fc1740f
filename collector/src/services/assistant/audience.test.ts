import { describe, expect, it } from 'vitest'
import { weightedMean } from './audience.ts'

describe('weightedMean', () => {
  it('weighs each known value and leaves out the parts nothing has been checked in', () => {
    expect(
      weightedMean([
        [100, 3],
        [0, 1],
        [null, 5],
      ]),
    ).toBe(75)
  })

  it('is null, not 0 %, when no part has a value yet', () => {
    expect(weightedMean([[null, 2]])).toBeNull()
    expect(weightedMean([])).toBeNull()
  })
})
