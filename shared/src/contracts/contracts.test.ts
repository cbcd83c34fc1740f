import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type CheckResult, decodeCheckResult, encodeCheckResult } from './check-result.ts'
import { decodeMonitorConfig, encodeMonitorConfig, type MonitorConfig, monitorRunsAt } from './monitor.ts'

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url))
const canonical = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes))

describe('check result v1 wire contract', () => {
  it('decodes the golden message written by an earlier version', () => {
    const result = decodeCheckResult(golden('check-result.v1.golden.json'))
    expect(result.status).toBe('up')
    expect(result.phases?.firstByteMs).toBe(100.1)
  })

  it('encodes to exactly the golden message', () => {
    const result: CheckResult = decodeCheckResult(golden('check-result.v1.golden.json'))
    expect(canonical(encodeCheckResult(result))).toEqual(canonical(golden('check-result.v1.golden.json')))
  })

  it('refuses a message of another version', () => {
    const future = { ...canonical(golden('check-result.v1.golden.json')), v: 2 }
    expect(() => decodeCheckResult(new TextEncoder().encode(JSON.stringify(future)))).toThrow()
  })

  it('refuses a message that is not JSON', () => {
    expect(() => decodeCheckResult(new TextEncoder().encode('{not json'))).toThrow()
  })

  it('refuses a status outside up, down, degraded', () => {
    const bad = { ...canonical(golden('check-result.v1.golden.json')), status: 'sideways' }
    expect(() => decodeCheckResult(new TextEncoder().encode(JSON.stringify(bad)))).toThrow(/status/)
  })
})

describe('monitor config v1 wire contract', () => {
  it('round-trips the golden message unchanged', () => {
    const monitor = decodeMonitorConfig(golden('monitor.v1.golden.json'))
    expect(canonical(encodeMonitorConfig(monitor))).toEqual(canonical(golden('monitor.v1.golden.json')))
  })

  it('runs a monitor only at its locations and only while enabled', () => {
    const monitor: MonitorConfig = decodeMonitorConfig(golden('monitor.v1.golden.json'))
    expect(monitorRunsAt(monitor, 'fra')).toBe(true)
    expect(monitorRunsAt({ ...monitor, locations: ['iad'] }, 'fra')).toBe(false)
    expect(monitorRunsAt({ ...monitor, enabled: false }, 'fra')).toBe(false)
  })
})

describe('check result v1 optional additions', () => {
  it('round-trips a result carrying the optional address, answers, packet loss and certificate dates', () => {
    const result = decodeCheckResult(golden('check-result.v1.1.golden.json'))
    expect(result.answers).toEqual(['93.184.216.34'])
    expect(canonical(encodeCheckResult(result))).toEqual(canonical(golden('check-result.v1.1.golden.json')))
  })
})

describe('monitor config v1 targets', () => {
  const targets = JSON.parse(golden('monitor.v1.targets.golden.json').toString()) as unknown[]

  it('round-trips every target kind unchanged', () => {
    for (const target of targets) {
      const bytes = new TextEncoder().encode(JSON.stringify(target))
      expect(canonical(encodeMonitorConfig(decodeMonitorConfig(bytes)))).toEqual(target)
    }
  })

  it('defaults the method of an http target written without one', () => {
    const old = { ...canonical(golden('monitor.v1.golden.json')), target: { kind: 'http', url: 'http://example.org/' } }
    const monitor = decodeMonitorConfig(new TextEncoder().encode(JSON.stringify(old)))
    expect(monitor.target).toEqual({ kind: 'http', url: 'http://example.org/', method: 'GET' })
  })

  it('refuses an unknown target kind, an invalid regex and a port out of range', () => {
    const base = canonical(golden('monitor.v1.golden.json'))
    const bad = [
      { kind: 'gopher', host: 'example.org' },
      { kind: 'http', url: 'https://example.org/', regex: '(' },
      { kind: 'tcp', host: 'example.org', port: 70_000 },
    ]
    for (const target of bad) {
      expect(() => decodeMonitorConfig(new TextEncoder().encode(JSON.stringify({ ...base, target })))).toThrow()
    }
  })
})

describe('v1 additions for check options and failure reasons', () => {
  it('round-trips a result carrying errorKind and a monitor carrying keywordAbsent, expectJson and auth', () => {
    const result = decodeCheckResult(golden('check-result.v1.2.golden.json'))
    expect(result.errorKind).toBe('keyword_missing')
    expect(canonical(encodeCheckResult(result))).toEqual(canonical(golden('check-result.v1.2.golden.json')))
    const monitor = decodeMonitorConfig(golden('monitor.v1.http-options.golden.json'))
    expect(canonical(encodeMonitorConfig(monitor))).toEqual(canonical(golden('monitor.v1.http-options.golden.json')))
  })

  it('refuses an errorKind outside the closed set and HTTP options the probe would not run', () => {
    const bad = { ...canonical(golden('check-result.v1.2.golden.json')), errorKind: 'gremlins' }
    expect(() => decodeCheckResult(new TextEncoder().encode(JSON.stringify(bad)))).toThrow(/errorKind/)
    const base = canonical(golden('monitor.v1.http-options.golden.json'))
    for (const change of [
      { headers: { Host: 'x' } },
      { method: 'GET' },
      { keyword: undefined },
      { jsonPath: { path: '$[' } },
      { headers: { Authorization: 'x' } },
    ]) {
      const target = { ...base.target, ...change }
      expect(
        () => decodeMonitorConfig(new TextEncoder().encode(JSON.stringify({ ...base, target }))),
        JSON.stringify(change),
      ).toThrow()
    }
  })
})

describe('check result v1 well-formed text', () => {
  it('decodes a lone surrogate escape, which no store accepts, as U+FFFD', () => {
    const result = {
      ...canonical(golden('check-result.v1.golden.json')),
      status: 'down',
      error: `${'a'.repeat(198)}\ud83d`,
    }
    const decoded = decodeCheckResult(new TextEncoder().encode(JSON.stringify(result)))
    expect(decoded.error).toBe(`${'a'.repeat(198)}\uFFFD`)
    expect(decoded.error?.isWellFormed()).toBe(true)
  })
})

/**
 * Rolling upgrades run two versions on one bus: a collector upgraded before the probes reads every
 * older result (the golden files above), and a version not yet upgraded reads what a newer one adds.
 * Minor versions only add optional fields, so decoding drops fields it does not know, at any depth,
 * instead of refusing the message; a value outside a closed set still fails (the collector
 * dead-letters it, see collector/src/ingest/consume-results-versions.test.ts).
 */
describe('v1 messages from a newer version', () => {
  const withAdditions = (message: Record<string, unknown>) =>
    new TextEncoder().encode(JSON.stringify({ ...message, addedLater: { any: ['shape'] } }))

  it('decodes every golden check result carrying fields added later, at the top and nested, as without them', () => {
    for (const name of [
      'check-result.v1.golden.json',
      'check-result.v1.1.golden.json',
      'check-result.v1.2.golden.json',
    ]) {
      const message = canonical(golden(name))
      const nested = { ...message, phases: { ...message.phases, resolverMs: 2 } }
      expect(decodeCheckResult(withAdditions(nested)), name).toEqual(
        decodeCheckResult(new TextEncoder().encode(JSON.stringify(nested))),
      )
      expect(decodeCheckResult(withAdditions(message)), name).toEqual(decodeCheckResult(golden(name)))
    }
  })

  it('decodes every golden monitor config carrying fields added later, as a probe not yet upgraded reads it', () => {
    for (const name of [
      'monitor.v1.golden.json',
      'monitor.v1.http-options.golden.json',
      'monitor.v1.assertions.golden.json',
    ]) {
      const message = canonical(golden(name))
      const target = { ...message.target, addedLater: 1 }
      expect(decodeMonitorConfig(withAdditions({ ...message, target })), name).toEqual(
        decodeMonitorConfig(golden(name)),
      )
    }
  })

  it('refuses a check kind or an error kind it does not know', () => {
    const message = canonical(golden('check-result.v1.2.golden.json'))
    expect(() => decodeCheckResult(withAdditions({ ...message, kind: 'carrier-pigeon' }))).toThrow(/kind/)
    expect(() => decodeCheckResult(withAdditions({ ...message, errorKind: 'solar_flare' }))).toThrow(/errorKind/)
  })
})
