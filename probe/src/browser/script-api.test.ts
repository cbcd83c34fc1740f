import { describe, expect, it } from 'vitest'
import { redactor } from './redact.ts'
import { loadScript } from './script-api.ts'

const hooks = () => {
  const events: string[] = []
  return {
    events,
    hooks: {
      onStepStart: (name: string) => events.push(`start ${name}`),
      onStepEnd: (name: string, status: string) => events.push(`end ${name} ${status}`),
      onLog: (text: string) => events.push(`log ${text}`),
    },
  }
}
const load = (source: string, watch = hooks()) =>
  loadScript(source, { secrets: { TOKEN: 'abc123' }, expectTimeoutMs: 100, hooks: watch.hooks })
const noPage = { page: undefined as never }

describe('loadScript', () => {
  it('runs nested steps in order and reports the innermost failing one', async () => {
    const watch = hooks()
    const script = load(
      `test('nested', async () => {
        await test.step('outer', async () => {
          await test.step('inner', async () => { expect(1 + 1).toBe(3) })
        })
      })`,
      watch,
    )
    await expect(script.body(noPage)).rejects.toThrow('expect(received).toBe(3) failed')
    expect(script.name).toBe('nested')
    expect(script.failedStep()).toBe('inner')
    expect(watch.events).toEqual(['start outer', 'start inner', 'end inner failed', 'end outer failed'])
  })

  it('gives value matchers, .not and secrets, and refuses anything but exactly one test', async () => {
    const script = load(`
      import { test, expect } from '@playwright/test'
      test('values', async () => {
        expect({ a: [1, 2] }).toEqual({ a: [1, 2] })
        expect('total 42').toMatch(/4\\d/)
        expect([1, 2]).toContain(2)
        expect(secrets.TOKEN).not.toBe('')
        console.log('token', secrets.TOKEN)
      })`)
    await script.body(noPage)
    expect(() => load(`test('a', async () => {}); test('b', async () => {})`)).toThrow('exactly one test')
    expect(() => load('const x = 1')).toThrow('declares 0')
  })

  it('stops a top-level infinite loop before any browser is involved', () => {
    expect(() => load('for (;;) {}')).toThrow(/timed out/)
  })
})

describe('redactor', () => {
  it('replaces every secret value, the longer first, and bounds the text', () => {
    const redact = redactor({ SHORT: 'pass', LONG: 'password1', EMPTY: '' })
    expect(redact('password1 then pass')).toBe('[secret LONG] then [secret SHORT]')
    expect(redact('x'.repeat(3000))).toHaveLength(2001)
  })
})
