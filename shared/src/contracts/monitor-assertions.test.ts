import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeMonitorConfig, encodeMonitorConfig } from './monitor.ts'

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url))
/** The message as the encoder writes it: compact JSON in the golden file's key order. */
const compact = (bytes: Uint8Array) => JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)))
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('monitor v1 with conditions and response-time thresholds', () => {
  it('round-trips a schedule carrying them byte for byte', () => {
    const monitor = decodeMonitorConfig(golden('monitor.v1.assertions.golden.json'))
    expect(monitor).toMatchObject({ degradedAboveMs: 800, downAboveMs: 5000 })
    expect(monitor.target.kind === 'http' && monitor.target.conditions).toHaveLength(4)
    expect(text(encodeMonitorConfig(monitor))).toBe(compact(golden('monitor.v1.assertions.golden.json')))
  })

  it('re-encodes the schedules of earlier versions byte for byte, with no threshold added', () => {
    for (const name of ['monitor.v1.golden.json', 'monitor.v1.http-options.golden.json']) {
      const monitor = decodeMonitorConfig(golden(name))
      expect(monitor).not.toHaveProperty('degradedAboveMs')
      expect(monitor).not.toHaveProperty('downAboveMs')
      expect(text(encodeMonitorConfig(monitor))).toBe(compact(golden(name)))
    }
  })

  it('refuses a schedule whose condition does not parse, naming it', () => {
    const message = JSON.parse(text(golden('monitor.v1.assertions.golden.json')))
    message.target.conditions = ['[STATUS] == 200', '[STATUS] 200']
    expect(() => decodeMonitorConfig(new TextEncoder().encode(JSON.stringify(message)))).toThrow(
      /condition 2: expected a comparator \(== != <= >= < >\) after \[STATUS\] at column 10/,
    )
  })
})
