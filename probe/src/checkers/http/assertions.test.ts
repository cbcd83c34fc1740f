import type { HttpTarget } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { bodyProblem } from './assertions.ts'

describe('body assertions', () => {
  it('quote a value cut inside an emoji as well-formed text', () => {
    const name = `${'a'.repeat(198)}😀`
    const target = { url: 'http://127.0.0.1/', jsonPath: { path: '$.name', equals: 'nope' } } as HttpTarget
    const problem = bodyProblem(target, Buffer.from(JSON.stringify({ name })), 'application/json')
    expect(problem?.kind).toBe('json_assertion')
    expect(problem?.message.isWellFormed()).toBe(true)
    expect(problem?.message).toBe(`JSONPath $.name is "${'a'.repeat(198)}, expected "nope"`)
  })
})
