import type { CheckResult } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { applyResult, DEFAULT_RULES, type MonitorMachine } from './transition.ts'

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString()
const result = (location: string, second: number, status: CheckResult['status']): CheckResult => ({
  v: 1,
  id: `${location}-${second}`,
  monitorId: 'm',
  organizationId: 'o',
  location,
  kind: 'http',
  status,
  startedAt: at(second),
  responseTimeMs: 10,
})
const fresh = (): MonitorMachine => ({ locations: new Map(), state: undefined })
const feed = (machine: MonitorMachine, results: CheckResult[]) =>
  results.map((r) => applyResult(machine, r, DEFAULT_RULES)?.kind ?? null)

describe('monitor state machine', () => {
  it('takes a single location down only on its second consecutive failure', () => {
    const machine = fresh()
    expect(feed(machine, [result('fra', 1, 'up'), result('fra', 2, 'down'), result('fra', 3, 'down')])).toEqual([
      null,
      null,
      'down',
    ])
    expect(machine.state?.status).toBe('down')
    expect(machine.state?.consecutiveFailures).toBe(2)
  })

  it('needs half of the locations failing: one of three is not enough, two of three is', () => {
    const machine = fresh()
    feed(machine, [result('fra', 1, 'up'), result('iad', 1, 'up'), result('sin', 1, 'up')])
    expect(feed(machine, [result('fra', 2, 'down'), result('fra', 3, 'down')])).toEqual([null, null])
    expect(machine.state?.status).toBe('up')
    expect(feed(machine, [result('iad', 4, 'down'), result('iad', 5, 'down')])).toEqual([null, 'down'])
  })

  it('recovers as soon as the quorum of failing locations is gone', () => {
    const machine = fresh()
    feed(machine, [result('fra', 1, 'down'), result('fra', 2, 'down')])
    expect(feed(machine, [result('fra', 3, 'up')])).toEqual(['up'])
    expect(machine.state).toMatchObject({ status: 'up', consecutiveFailures: 0 })
  })

  it('counts degraded as up and reports no transition for the first result', () => {
    const machine = fresh()
    expect(feed(machine, [result('fra', 1, 'degraded')])).toEqual([null])
    expect(machine.state?.status).toBe('up')
  })

  it('never calls a monitor up before its first success: failures below the threshold leave it unknown', () => {
    const machine = fresh()
    expect(feed(machine, [result('fra', 1, 'down'), result('iad', 1, 'down')])).toEqual([null, null])
    expect(machine.state).toBeUndefined()
    expect(feed(machine, [result('fra', 2, 'down')])).toEqual(['down'])
    expect(machine.state?.status).toBe('down')
  })

  it('calls a new monitor up as soon as one location answers, failures elsewhere notwithstanding', () => {
    const machine = fresh()
    expect(feed(machine, [result('fra', 1, 'down'), result('iad', 2, 'degraded')])).toEqual([null, null])
    expect(machine.state?.status).toBe('up')
  })

  it('ignores a result not newer than the last one of its location, so redeliveries change nothing', () => {
    const machine = fresh()
    feed(machine, [result('fra', 1, 'down'), result('fra', 2, 'down')])
    const before = structuredClone(machine.state)
    expect(feed(machine, [result('fra', 2, 'down'), result('fra', 1, 'up')])).toEqual([null, null])
    expect(machine.state).toEqual(before)
  })

  it('keeps the last certificate seen when a later result carries none', () => {
    const machine = fresh()
    const withCert = {
      ...result('fra', 1, 'up'),
      certificate: { valid: true, expiresAt: at(99), issuer: 'CA', subject: 'example.org' },
    }
    feed(machine, [withCert, result('fra', 2, 'up')])
    expect(machine.state?.certificate).toEqual({ valid: true, expiresAt: at(99), issuer: 'CA' })
  })
})
