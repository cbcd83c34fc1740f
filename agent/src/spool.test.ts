import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import type { AgentHeartbeat } from '@guard/shared'
import { sampleHeartbeat } from '@guard/shared/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backoffDelay } from './backoff.ts'
import { Spool } from './spool.ts'

const at = (ms: number) => sampleHeartbeat('d', {}, { timestamp: new Date(ms).toISOString() })
/** The timestamp of a spooled heartbeat, read back from the gzip body the agent sends. */
const timestampOf = (entry: { body: Buffer } | undefined) =>
  entry ? (JSON.parse(gunzipSync(entry.body).toString('utf8')) as AgentHeartbeat).timestamp : undefined

describe('spool', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-spool-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('gives heartbeats back oldest first, across a restart, and forgets a removed one', async () => {
    const start = Date.now()
    const spool = await Spool.open(dir, { maxBytes: 1e6, maxAgeMs: 3_600_000 })
    for (const offset of [0, 1000, 2000]) await spool.add(at(start + offset), start + offset)
    const reopened = await Spool.open(dir, { maxBytes: 1e6, maxAgeMs: 3_600_000 })
    expect(reopened.size).toBe(3)
    const first = await reopened.peek(start + 3000)
    expect(timestampOf(first)).toBe(new Date(start).toISOString())
    await reopened.remove(first!.name)
    expect(timestampOf(await reopened.peek(start + 3000))).toBe(new Date(start + 1000).toISOString())
  })

  it('drops and counts the oldest past the size limit and anything past the age limit', async () => {
    const start = Date.now()
    // Compressed sizes differ by a byte or two between timestamps: room for three, never four.
    const oneSize = gzipSync(JSON.stringify(at(start))).length
    const spool = await Spool.open(dir, { maxBytes: oneSize * 3 + 10, maxAgeMs: 10_000 })
    for (let i = 0; i < 5; i += 1) await spool.add(at(start + i), start + i)
    expect(spool.size).toBe(3)
    expect(spool.dropped).toBe(2)
    expect(timestampOf(await spool.peek(start + 5))).toBe(new Date(start + 2).toISOString())
    expect(await spool.peek(start + 60_000)).toBeUndefined()
    expect(spool.dropped).toBe(5)
    expect(await readdir(dir)).toEqual([])
  })

  it('skips a corrupt file, a truncated one and a half-written temporary one', async () => {
    const whole = gzipSync(JSON.stringify(at(Date.now())))
    await writeFile(join(dir, '000000000000001-000000.json.gz'), '{half')
    await writeFile(join(dir, '000000000000002-000001.json.gz'), whole.subarray(0, whole.length - 4))
    await writeFile(join(dir, '000000000000003-000002.json.gz.tmp'), whole.subarray(0, 10))
    await writeFile(join(dir, '000000000000004-000003.json.gz'), whole)
    const spool = await Spool.open(dir, { maxBytes: 1e6, maxAgeMs: Number.MAX_SAFE_INTEGER })
    expect((await spool.peek())?.body).toEqual(whole)
    expect(spool.dropped).toBe(2)
    expect(await readdir(dir)).toEqual(['000000000000004-000003.json.gz'])
  })
})

describe('backoff', () => {
  it('grows exponentially to the cap, jittered within the upper half', () => {
    expect(backoffDelay(1, 1000, 60_000, () => 0)).toBe(500)
    expect(backoffDelay(1, 1000, 60_000, () => 1)).toBe(1000)
    expect(backoffDelay(4, 1000, 60_000, () => 1)).toBe(8000)
    expect(backoffDelay(30, 1000, 60_000, () => 0.5)).toBe(45_000)
  })
})
