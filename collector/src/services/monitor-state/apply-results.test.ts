import { type CheckResult, DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorForTest } from '../../test-support.ts'
import { applyResultsToState } from './apply-results.ts'
import { applyResult, DEFAULT_RULES, type MonitorMachine } from './transition.ts'

const ORG = DEFAULT_ORGANIZATION.id
const BASE = Date.UTC(2026, 0, 1)

const result = (monitorId: string, location: string, second: number, status: CheckResult['status']): CheckResult => ({
  v: 1,
  id: newId(),
  monitorId,
  organizationId: ORG,
  location,
  kind: 'http',
  status,
  startedAt: new Date(BASE + second * 1000).toISOString(),
  responseTimeMs: 10 + second,
  ...(status === 'up' ? {} : { error: `failed at ${second}`, errorKind: 'status_mismatch' }),
})

/** The machine fed one result at a time, batch after batch, oldest first within each: what the store must match. */
function reference(batches: CheckResult[][]) {
  const machines = new Map<string, MonitorMachine>()
  const events: string[] = []
  for (const batch of batches) {
    for (const entry of [...batch].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))) {
      const machine = machines.get(entry.monitorId) ?? { locations: new Map(), state: undefined }
      machines.set(entry.monitorId, machine)
      const transition = applyResult(machine, entry, DEFAULT_RULES)
      if (transition) events.push(`monitor.${transition.kind}:${entry.monitorId}:${transition.at}`)
    }
  }
  return { machines, events }
}

describe('applyResultsToState', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  const monitors = [newId(), newId(), newId()]

  beforeAll(async () => {
    harness = await collectorForTest()
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
       SELECT id, $2, 'domain', id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
         FROM unnest($1::text[]) AS id`,
      [monitors, ORG],
    )
  })
  afterAll(() => harness.close())

  const stored = async () => {
    const locations = await harness.ctx.sql.query<Record<string, unknown>>(
      `SELECT monitor_id, location, status, consecutive_failures,
              (extract(epoch FROM last_result_at) * 1000)::float8 AS last_ms, last_error, last_error_kind,
              (extract(epoch FROM last_error_at) * 1000)::float8 AS last_error_ms, xmin::text AS version
         FROM monitoring.monitor_location_state WHERE monitor_id = ANY($1) ORDER BY monitor_id, location`,
      [monitors],
    )
    const states = await harness.ctx.sql.query<Record<string, unknown>>(
      `SELECT monitor_id, status, consecutive_failures, (extract(epoch FROM changed_at) * 1000)::float8 AS changed_ms,
              (extract(epoch FROM last_check_at) * 1000)::float8 AS last_check_ms, xmin::text AS version
         FROM monitoring.monitor_state WHERE monitor_id = ANY($1) ORDER BY monitor_id`,
      [monitors],
    )
    return { locations: locations.rows, states: states.rows }
  }

  it('stores what the machine decides result by result, for batches mixing late, repeated and redelivered results', async () => {
    const [a, b, c] = monitors as [string, string, string]
    const first = [
      result(a, 'fra', 10, 'up'),
      result(a, 'iad', 11, 'down'),
      result(b, 'fra', 10, 'down'),
      result(b, 'iad', 12, 'down'),
      result(b, 'fra', 13, 'down'),
      result(c, 'sin', 10, 'up'),
    ]
    const late = result(b, 'fra', 5, 'up')
    const second = [
      // A redelivery of part of the first batch, a result older than what is committed, and new ones.
      first[1]!,
      first[4]!,
      late,
      result(a, 'iad', 20, 'down'),
      result(a, 'fra', 21, 'down'),
      result(a, 'fra', 22, 'down'),
      result(b, 'iad', 20, 'down'),
      result(b, 'fra', 21, 'up'),
      result(b, 'iad', 22, 'up'),
    ]
    const third = [result(a, 'fra', 30, 'up'), result(a, 'iad', 30, 'up'), result(a, 'iad', 30, 'up')]
    const staged: string[] = []
    for (const batch of [first, second, third]) staged.push(...(await applyResultsToState(harness.ctx.sql, batch)))

    const expected = reference([first, second, third])
    expect(staged).toEqual(expected.events)
    expect(expected.events.map((id) => id.split(':')[0])).toEqual([
      'monitor.down',
      'monitor.down',
      'monitor.up',
      'monitor.up',
    ])
    const outbox = await harness.ctx.sql.query<{ id: string }>(
      'SELECT id FROM monitoring.event_outbox WHERE id = ANY($1) ORDER BY seq',
      [expected.events],
    )
    expect(outbox.rows.map((row) => row.id)).toEqual(expected.events)

    const { locations, states } = await stored()
    const wantLocations = [...expected.machines]
      .flatMap(([monitorId, machine]) =>
        [...machine.locations].map(([location, state]) => ({
          monitor_id: monitorId,
          location,
          status: state.status,
          consecutive_failures: state.consecutiveFailures,
          last_ms: state.lastResultAt,
          last_error: state.lastError?.message ?? null,
          last_error_kind: state.lastError?.kind ?? null,
          last_error_ms: state.lastError?.at ?? null,
        })),
      )
      .sort((x, y) => `${x.monitor_id}/${x.location}`.localeCompare(`${y.monitor_id}/${y.location}`))
    expect(locations.map(({ version: _, ...row }) => row)).toEqual(wantLocations)
    const wantStates = [...expected.machines]
      .map(([monitorId, machine]) => ({
        monitor_id: monitorId,
        status: machine.state!.status,
        consecutive_failures: machine.state!.consecutiveFailures,
        changed_ms: machine.state!.changedAt,
        last_check_ms: machine.state!.lastCheckAt,
      }))
      .sort((x, y) => x.monitor_id.localeCompare(y.monitor_id))
    expect(states.map(({ version: _, ...row }) => row)).toEqual(wantStates)
    // The late result counted nowhere: its location kept the newer one.
    expect(locations.find((row) => row.monitor_id === b && row.location === 'fra')?.last_ms).toBe(BASE + 21_000)
  })

  it('writes no row and stages no event for a batch it has already applied', async () => {
    const [a] = monitors as [string]
    const batch = [result(a, 'fra', 40, 'down'), result(a, 'iad', 41, 'down'), result(a, 'fra', 42, 'down')]
    const events = await applyResultsToState(harness.ctx.sql, batch)
    expect(events).toEqual([`monitor.down:${a}:${BASE + 42_000}`])
    const before = await stored()
    expect(await applyResultsToState(harness.ctx.sql, [...batch].reverse())).toEqual([])
    // xmin moves with every write: equal versions mean the redelivery rewrote nothing.
    expect(await stored()).toEqual(before)
  })
  it('keeps a monitor whose first check failed unknown, and counts its next failure on from the stored location', async () => {
    const fresh = newId()
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
       VALUES ($1, $2, 'domain', $1, jsonb_build_object('kind', 'http', 'url', 'https://unresolvable.invalid'), 60, 30)`,
      [fresh, ORG],
    )
    const state = async () =>
      (
        await harness.ctx.sql.query<{ status: string }>(
          'SELECT status FROM monitoring.monitor_state WHERE monitor_id = $1',
          [fresh],
        )
      ).rows
    expect(await applyResultsToState(harness.ctx.sql, [result(fresh, 'local', 60, 'down')])).toEqual([])
    expect(await state()).toEqual([])
    expect(await applyResultsToState(harness.ctx.sql, [result(fresh, 'local', 120, 'down')])).toEqual([
      `monitor.down:${fresh}:${BASE + 120_000}`,
    ])
    expect(await state()).toEqual([{ status: 'down' }])
  })

  it('stores an error message carrying a lone surrogate, which JSON allows, with U+FFFD in its place', async () => {
    const [, , c] = monitors as [string, string, string]
    const failing = { ...result(c, 'fra', 50, 'down'), error: 'bad \ud800 byte' }
    await applyResultsToState(harness.ctx.sql, [failing])
    const { locations } = await stored()
    expect(locations.find((row) => row.monitor_id === c && row.location === 'fra')?.last_error).toBe('bad \uFFFD byte')
  })
})
