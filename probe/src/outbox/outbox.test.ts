import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Outbox, type OutboxEntry, type OutboxOptions } from './outbox.ts'

const entry = (n: number, at = Date.now(), key = `k${n}`): OutboxEntry => ({
  id: `r${n}`,
  key,
  subject: 'results.fra',
  data: new TextEncoder().encode(JSON.stringify({ n, pad: 'x'.repeat(100) })),
  at,
})

async function drainIds(outbox: Outbox, stopAfter = Number.POSITIVE_INFINITY): Promise<string[]> {
  const ids: string[] = []
  await outbox
    .drain(async (stored) => {
      if (ids.length >= stopAfter) throw new Error('bus away')
      ids.push(stored.id)
    })
    .catch(() => {})
  return ids
}

describe('Outbox', () => {
  let dir: string
  const opened: Outbox[] = []
  const openOutbox = async (options: OutboxOptions) => {
    const outbox = await Outbox.open(options)
    opened.push(outbox)
    return outbox
  }
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-outbox-'))
  })
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((outbox) => outbox.close()))
    await rm(dir, { recursive: true, force: true })
  })

  it('replays in order across segments and resumes after a reopen where delivery stopped', async () => {
    const first = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 60_000, segmentBytes: 600 })
    for (let n = 1; n <= 12; n++) await first.append(entry(n))
    expect(first.depth).toBe(12)
    expect(await drainIds(first, 5)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5'])

    const reopened = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 60_000, segmentBytes: 600 })
    expect(reopened.depth).toBe(7)
    expect(await drainIds(reopened)).toEqual(['r6', 'r7', 'r8', 'r9', 'r10', 'r11', 'r12'])
    expect(reopened.depth).toBe(0)
    expect((await readdir(dir)).filter((name) => name.endsWith('.jsonl'))).toEqual([])
  })

  it('keeps the entry whose publish failed first in line', async () => {
    const outbox = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 60_000 })
    for (let n = 1; n <= 3; n++) await outbox.append(entry(n))
    expect(await drainIds(outbox, 1)).toEqual(['r1'])
    expect(await drainIds(outbox)).toEqual(['r2', 'r3'])
  })

  it('replays several keys at once but never two entries of one key, keeping each key in order', async () => {
    const outbox = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 60_000 })
    for (let n = 1; n <= 30; n++) await outbox.append(entry(n, Date.now(), `m${n % 3}`))
    const inFlight = new Map<string, number>()
    let most = 0
    const order: string[] = []
    await outbox.drain(async (stored) => {
      const now = (inFlight.get(stored.key) ?? 0) + 1
      expect(now).toBe(1)
      inFlight.set(stored.key, now)
      most = Math.max(
        most,
        [...inFlight.values()].reduce((sum, count) => sum + count, 0),
      )
      await new Promise((resolve) => setTimeout(resolve, 1))
      order.push(stored.id)
      inFlight.set(stored.key, now - 1)
    })
    expect(most).toBe(3)
    for (const key of [0, 1, 2]) {
      const ids = order.filter((id) => Number(id.slice(1)) % 3 === key).map((id) => Number(id.slice(1)))
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
    }
    expect(order).toHaveLength(30)
  })

  it('drops the oldest entries to stay under the byte limit and counts them', async () => {
    const outbox = await openOutbox({ dir, maxBytes: 2000, maxAgeMs: 60_000, segmentBytes: 500 })
    for (let n = 1; n <= 30; n++) await outbox.append(entry(n))
    expect(outbox.bytes).toBeLessThanOrEqual(2000)
    expect(outbox.drops.full).toBe(30 - outbox.depth)
    const ids = await drainIds(outbox)
    expect(ids.at(-1)).toBe('r30')
    expect(ids).toEqual([...ids].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))))
  })

  it('drops entries older than the age limit when their turn comes', async () => {
    let now = 1_000_000
    const outbox = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 10_000, now: () => now })
    await outbox.append(entry(1, now))
    await outbox.append(entry(2, now + 8000))
    now += 15_000
    expect(await drainIds(outbox)).toEqual(['r2'])
    expect(outbox.drops.expired).toBe(1)
  })

  it('survives a torn last line left by a crash, counting nothing lost that was whole', async () => {
    const outbox = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 60_000 })
    await outbox.append(entry(1))
    await outbox.append(entry(2))
    const [segment] = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'))
    await appendFile(join(dir, segment ?? ''), '{"id":"r3","subj')
    const reopened = await openOutbox({ dir, maxBytes: 1_000_000, maxAgeMs: 60_000 })
    await reopened.append(entry(4))
    expect(await drainIds(reopened)).toEqual(['r1', 'r2', 'r4'])
  })
})
