import { describe, expect, it } from 'vitest'
import { deriveGroupState } from './rule.ts'
import type { MemberState } from './schemas.ts'

const states = (up: number, down: number, other: MemberState[] = []): MemberState[] => [
  ...Array<MemberState>(up).fill('up'),
  ...Array<MemberState>(down).fill('down'),
  ...other,
]

describe('a group state derived by its rule', () => {
  it('all: up only when every member is up, down when all are, degraded in between', () => {
    expect(deriveGroupState({ type: 'all' }, states(3, 0))).toBe('up')
    expect(deriveGroupState({ type: 'all' }, states(2, 1))).toBe('degraded')
    expect(deriveGroupState({ type: 'all' }, states(0, 3))).toBe('down')
    expect(deriveGroupState({ type: 'all' }, states(2, 0, ['degraded']))).toBe('degraded')
  })

  it('any: down as soon as one member is down', () => {
    expect(deriveGroupState({ type: 'any' }, states(9, 1))).toBe('down')
    expect(deriveGroupState({ type: 'any' }, states(9, 0, ['degraded']))).toBe('degraded')
    expect(deriveGroupState({ type: 'any' }, states(4, 0))).toBe('up')
  })

  it('percent: down from the threshold on, exactly at it included; degraded below it when any is down', () => {
    const half = { type: 'percent', percent: 50 } as const
    expect(deriveGroupState(half, states(2, 2))).toBe('down')
    expect(deriveGroupState(half, states(3, 2))).toBe('degraded')
    expect(deriveGroupState(half, states(5, 0))).toBe('up')
    // 1 of 3 is 33.33…%: a threshold of 34 is not reached, 33 is.
    expect(deriveGroupState({ type: 'percent', percent: 34 }, states(2, 1))).toBe('degraded')
    expect(deriveGroupState({ type: 'percent', percent: 33 }, states(2, 1))).toBe('down')
    expect(deriveGroupState({ type: 'percent', percent: 100 }, states(1, 3))).toBe('degraded')
  })

  it('leaves paused and not yet checked members out, and is unknown with no other member', () => {
    expect(deriveGroupState({ type: 'all' }, states(2, 0, ['paused', 'unknown']))).toBe('up')
    expect(deriveGroupState({ type: 'all' }, states(0, 1, ['paused']))).toBe('down')
    expect(deriveGroupState({ type: 'any' }, ['paused', 'unknown'])).toBe('unknown')
    expect(deriveGroupState({ type: 'percent', percent: 10 }, [])).toBe('unknown')
  })
})
