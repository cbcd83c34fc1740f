import { mkdtemp, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CollectorEnv } from '../../env.ts'
import { pruneArtifacts } from './prune-artifacts.ts'
import { artifactKey, fileArtifactStorage } from './storage.ts'

describe('browser run artifacts', () => {
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guard-artifacts-'))
  })
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  it('prunes the runs older than the retention and keeps the newer ones', async () => {
    const storage = fileArtifactStorage(join(dataDir, 'artifacts'))
    const old = artifactKey('org-a', 'check-1', 'run-old', 'trace.zip')
    const fresh = artifactKey('org-a', 'check-1', 'run-new', 'screenshot.png')
    await storage.put(old, Buffer.from('PK'))
    await storage.append(old, Buffer.from('zip'))
    await storage.put(fresh, Buffer.from('png'))
    const fifteenDaysAgo = new Date(Date.now() - 15 * 86_400_000)
    await utimes(join(dataDir, 'artifacts', 'org-a/check-1/run-old'), fifteenDaysAgo, fifteenDaysAgo)
    expect(Buffer.from((await storage.get(old))!).toString()).toBe('PKzip')

    const env = { GUARD_DATA_DIR: dataDir, GUARD_ARTIFACT_RETENTION_DAYS: 14 } as CollectorEnv
    expect(await pruneArtifacts({ ctx: { env } })).toBe(1)
    expect(await storage.get(old)).toBeUndefined()
    expect(Buffer.from((await storage.get(fresh))!).toString()).toBe('png')
    expect((await storage.list()).map((run) => run.prefix)).toEqual(['org-a/check-1/run-new'])
  })

  it('refuses a key that would leave the store', async () => {
    const storage = fileArtifactStorage(join(dataDir, 'artifacts'))
    await expect(storage.get('../../etc/passwd')).rejects.toThrow(/leaves the store/)
  })
})
