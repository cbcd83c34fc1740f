import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeEvent, encodeEvent, eventSubject } from './events.ts'

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url))
const canonical = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes))
const goldens = [
  'event.monitor-down.v1.golden.json',
  'event.monitor-up.v1.golden.json',
  'event.certificate-expiring.v1.golden.json',
  'event.certificate-renewed.v1.golden.json',
  'event.domain-expiring.v1.golden.json',
  'event.incident-opened.v1.golden.json',
]

describe('event v1 wire contract', () => {
  it.each(goldens)('round-trips %s unchanged', (name) => {
    const event = decodeEvent(golden(name))
    expect(canonical(encodeEvent(event))).toEqual(canonical(golden(name)))
  })

  it('reads a monitor.down written before error kinds existed', () => {
    const {
      errorKind: _kind,
      errorMessage: _message,
      ...data
    } = canonical(golden('event.monitor-down.v1.golden.json')).data
    const old = { ...canonical(golden('event.monitor-down.v1.golden.json')), data }
    const event = decodeEvent(new TextEncoder().encode(JSON.stringify(old)))
    expect(event.type === 'monitor.down' && event.data.errorKind).toBeUndefined()
  })

  it('refuses another version, an unknown type and a threshold that is not 30, 14, 7 or 1', () => {
    const base = canonical(golden('event.certificate-expiring.v1.golden.json'))
    for (const bad of [
      { ...base, v: 2 },
      { ...base, type: 'certificate.renewed' },
      { ...base, data: { ...base.data, threshold: 10 } },
    ]) {
      expect(() => decodeEvent(new TextEncoder().encode(JSON.stringify(bad)))).toThrow()
    }
  })

  it('publishes each type on its own subject under events.>', () => {
    expect(eventSubject('incident.opened')).toBe('events.incident.opened')
  })
})
