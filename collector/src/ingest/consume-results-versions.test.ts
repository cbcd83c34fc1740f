import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type DeadLetter, deadLetterSubject, decodeDeadLetter, newId, resultSubject } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../services/results/query.ts'
import { collectorForTest } from '../test-support.ts'
import { consumeResults, type IngestStats } from './consume-results.ts'

/** The check-result messages each earlier probe version published, committed when that version shipped. */
const goldenFolder = fileURLToPath(new URL('../../../shared/src/contracts/golden/', import.meta.url))
const golden = (version: string) => readFileSync(`${goldenFolder}check-result.${version}.golden.json`)
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

const waitUntil = async (condition: () => boolean | Promise<boolean>, what: string) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('result ingest across probe versions (rolling upgrades)', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }

  beforeAll(async () => {
    harness = await collectorForTest()
    // A loaded machine starts the embedded stores slower than the default hook timeout.
  }, 240_000)
  afterAll(() => harness.close())

  const storedIds = async (ids: string[]) =>
    (
      await selectRows<{ id: string }>(
        harness.ctx.timeseries,
        'SELECT id FROM check_results FINAL WHERE id IN {ids:Array(String)} ORDER BY id',
        { ids },
      )
    ).map((row) => row.id)

  it("stores every older probe's result exactly as that probe published it", async () => {
    const versions = ['v1', 'v1.1', 'v1.2']
    const consumer = await consumeResults(harness.ctx, stats)
    const ids: string[] = []
    for (const version of versions) {
      const bytes = golden(version)
      const { id, location } = JSON.parse(bytes.toString()) as { id: string; location: string }
      ids.push(id)
      await harness.ctx.bus.publish(resultSubject(location), bytes, { msgId: id })
    }
    await waitUntil(async () => (await storedIds(ids)).length === versions.length, 'every version stored')
    await consumer.stop()
    expect(await storedIds(ids)).toEqual([...ids].sort())
    expect(stats.deadLettered).toBe(0)
  })

  it("takes a newer probe's result with fields it does not know, and dead-letters a kind it does not know without stopping", async () => {
    const deadLetters: DeadLetter[] = []
    const subscription = await harness.ctx.bus.subscribe(deadLetterSubject('results'), (data) => {
      deadLetters.push(decodeDeadLetter(data))
    })
    const consumer = await consumeResults(harness.ctx, stats)
    const newest = JSON.parse(golden('v1.2').toString()) as Record<string, unknown>
    // A later minor version adds optional fields, nested ones too: this collector drops them and stores the rest.
    const extended = {
      ...newest,
      id: newId(),
      attempt: { retries: 2 },
      phases: { dnsMs: 1, resolverMs: 3 },
    }
    const unknownKind = { ...newest, id: newId(), kind: 'carrier-pigeon' }
    const unknownErrorKind = { ...newest, id: newId(), errorKind: 'solar_flare' }
    const after = { ...newest, id: newId() }
    for (const message of [extended, unknownKind, unknownErrorKind, after]) {
      await harness.ctx.bus.publish(resultSubject('iad'), encode(message), { msgId: message.id })
    }
    await waitUntil(async () => (await storedIds([extended.id, after.id])).length === 2, 'the known results stored')
    await waitUntil(() => deadLetters.length === 2, 'two dead letters')
    await consumer.stop()
    await subscription.stop()
    expect(await storedIds([unknownKind.id, unknownErrorKind.id])).toEqual([])
    expect(deadLetters.map((letter) => [letter.reason, Buffer.from(letter.data, 'base64').toString()])).toEqual([
      ['contract', expect.stringContaining('carrier-pigeon')],
      ['contract', expect.stringContaining('solar_flare')],
    ])
  })
})
