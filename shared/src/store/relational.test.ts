import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startPostgres } from '../testing/postgres.ts'
import { migrate } from './migrate.ts'
import { openTestRelationalStore } from './pglite-template.ts'
import { openRelationalStore } from './relational.ts'
import type { RelationalStore } from './types.ts'

/** A store for one test, and a second handle on the same database (another pool, or the same PGlite). */
interface Target {
  store: RelationalStore
  peer: RelationalStore
  close(): Promise<void>
}

async function pgliteTarget(): Promise<Target> {
  const store = await openTestRelationalStore()
  return { store, peer: store, close: () => store.close() }
}

function postgresTarget(url: string): () => Promise<Target> {
  return async () => {
    const database = `t_${randomBytes(6).toString('hex')}`
    const admin = await openRelationalStore({ databaseUrl: url, dataDir: tmpdir() })
    await admin.query(`CREATE DATABASE ${database}`)
    await admin.close()
    const databaseUrl = url.replace(/\/guard$/, `/${database}`)
    const store = await openRelationalStore({ databaseUrl, dataDir: tmpdir() })
    const peer = await openRelationalStore({ databaseUrl, dataDir: tmpdir() })
    return {
      store,
      peer,
      close: async () => {
        await store.close()
        await peer.close()
      },
    }
  }
}

const folders: string[] = []

function migrationFolder(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'guard-migrations-'))
  folders.push(directory)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text)
  return directory
}

const postgres = await startPostgres()

afterAll(async () => {
  await postgres?.stop()
  for (const directory of folders) rmSync(directory, { recursive: true, force: true })
})

const engines = [
  { name: 'PGlite', target: pgliteTarget },
  { name: 'PostgreSQL', target: postgres && postgresTarget(postgres.url) },
]

for (const engine of engines) {
  describe.skipIf(!engine.target)(engine.name, () => {
    let target: Target
    beforeEach(async () => {
      target = await engine.target!()
    })
    afterEach(() => target.close())

    test('migrations apply once and in order', async () => {
      const directory = migrationFolder({
        // 002 depends on 001 and 010 on 002, so any other order fails.
        '010_more.sql': "INSERT INTO items (id, note, extra) VALUES (2, 'second', 'x')",
        '001_items.sql': 'CREATE TABLE items (id int PRIMARY KEY, note text NOT NULL)',
        '002_extra.sql': "ALTER TABLE items ADD COLUMN extra text;\nINSERT INTO items VALUES (1, 'first', NULL);\n",
        'README.md': 'not a migration',
      })
      expect(await migrate(target.store, { service: 'identity', directory })).toEqual([
        '001_items.sql',
        '002_extra.sql',
        '010_more.sql',
      ])
      expect(await migrate(target.store, { service: 'identity', directory })).toEqual([])
      const items = await target.store.query<{ id: number }>('SELECT id FROM items ORDER BY id')
      expect(items.rows).toEqual([{ id: 1 }, { id: 2 }])
      const recorded = await target.store.query<{ service: string; name: string; checksum: string; applied_at: Date }>(
        'SELECT service, name, checksum, applied_at FROM guard_migrations ORDER BY name',
      )
      expect(recorded.rows.map((row) => row.name)).toEqual(['001_items.sql', '002_extra.sql', '010_more.sql'])
      for (const row of recorded.rows) {
        expect(row.service).toBe('identity')
        expect(row.checksum).toMatch(/^[0-9a-f]{64}$/)
        expect(row.applied_at).toBeInstanceOf(Date)
      }
    })

    test('two stores migrating at once apply each file once', async () => {
      const directory = migrationFolder({
        // Neither statement can run twice without an error or a duplicate row.
        '001_counter.sql': 'CREATE TABLE counter (n int NOT NULL)',
        '002_one.sql': 'INSERT INTO counter VALUES (1)',
        '003_two.sql': 'INSERT INTO counter VALUES (2)',
      })
      const [first, second] = await Promise.all([
        migrate(target.store, { service: 'collector', directory }),
        migrate(target.peer, { service: 'collector', directory }),
      ])
      expect([...first, ...second].sort()).toEqual(['001_counter.sql', '002_one.sql', '003_two.sql'])
      const counter = await target.store.query<{ n: number }>('SELECT n FROM counter ORDER BY n')
      expect(counter.rows).toEqual([{ n: 1 }, { n: 2 }])
    })

    test('a changed migration file is refused', async () => {
      const directory = migrationFolder({ '001_items.sql': 'CREATE TABLE items (id int)' })
      await migrate(target.store, { service: 'identity', directory })
      writeFileSync(join(directory, '001_items.sql'), 'CREATE TABLE items (id bigint)')
      writeFileSync(join(directory, '002_later.sql'), 'CREATE TABLE later (id int)')
      await expect(migrate(target.store, { service: 'identity', directory })).rejects.toThrow(
        /001_items\.sql \(service identity\) was changed after it was applied/,
      )
      const later = await target.store.query("SELECT 1 FROM pg_tables WHERE tablename = 'later'")
      expect(later.rows).toEqual([])
    })

    test('a database a newer release migrated is refused before anything runs, naming what it does not know', async () => {
      const newer = migrationFolder({
        '001_items.sql': 'CREATE TABLE items (id int)',
        '173_later.sql': 'CREATE TABLE later (id int)',
      })
      await migrate(target.store, { service: 'collector', directory: newer })
      const older = migrationFolder({
        '001_items.sql': 'CREATE TABLE items (id int)',
        '002_pending.sql': 'CREATE TABLE pending (id int)',
      })
      await expect(migrate(target.store, { service: 'collector', directory: older })).rejects.toThrow(
        /PostgreSQL database holds 1 migration\(s\) of service collector that this Guard does not know: 173_later\.sql\. Its schema is at version 173 \(173_later\.sql\), this Guard's at 2 \(002_pending\.sql\).*refuses to start/,
      )
      const pending = await target.store.query("SELECT 1 FROM pg_tables WHERE tablename = 'pending'")
      expect(pending.rows).toEqual([])
      // Another service's migrations in the same database are not this one's schema.
      const identity = migrationFolder({ '001_accounts.sql': 'CREATE TABLE accounts (id int)' })
      expect(await migrate(target.store, { service: 'identity', directory: identity })).toEqual(['001_accounts.sql'])
    })

    test('a failed transaction leaves nothing behind', async () => {
      await target.store.query('CREATE TABLE items (id int PRIMARY KEY)')
      await expect(
        target.store.transaction(async (tx) => {
          await tx.query('INSERT INTO items VALUES ($1)', [1])
          throw new Error('work failed')
        }),
      ).rejects.toThrow('work failed')

      // A savepoint: the inner failure undoes only the inner work.
      await target.store.transaction(async (tx) => {
        await tx.query('INSERT INTO items VALUES ($1)', [2])
        await expect(
          tx.transaction(async (inner) => {
            await inner.query('INSERT INTO items VALUES ($1)', [3])
            await inner.query('INSERT INTO items VALUES ($1)', [2])
          }),
        ).rejects.toThrow(/duplicate key/)
      })

      // The good file before it stays applied; the broken one leaves neither its table nor a record.
      const directory = migrationFolder({
        '001_good.sql': 'CREATE TABLE good (id int)',
        '002_broken.sql': 'CREATE TABLE half (id int);\nSELECT * FROM no_such_table;',
      })
      await expect(migrate(target.store, { service: 'identity', directory })).rejects.toThrow(/no_such_table/)

      const items = await target.store.query<{ id: number }>('SELECT id FROM items ORDER BY id')
      expect(items.rows).toEqual([{ id: 2 }])
      const half = await target.store.query("SELECT 1 FROM pg_tables WHERE tablename = 'half'")
      expect(half.rows).toEqual([])
      const recorded = await target.store.query('SELECT name FROM guard_migrations')
      expect(recorded.rows).toEqual([{ name: '001_good.sql' }])
    })

    test('parameters are bound not interpolated', async () => {
      await target.store.query('CREATE TABLE notes (body text NOT NULL)')
      const hostile = "x'); DROP TABLE notes; -- $2 \\"
      const inserted = await target.store.query('INSERT INTO notes (body) VALUES ($1)', [hostile])
      expect(inserted.affectedRows).toBe(1)
      const read = await target.store.query<{ body: string }>('SELECT body FROM notes WHERE body = $1', [hostile])
      expect(read.rows).toEqual([{ body: hostile }])
      expect(read.affectedRows).toBe(0)
    })

    test('both engines return the same JS types', async () => {
      const { rows } = await target.store.query<Record<string, unknown>>(
        `SELECT count(*) AS count, 9007199254740993::int8 AS huge, 1.50::numeric AS price,
                '2024-01-02'::date AS day, '2024-01-02T03:04:05.678Z'::timestamptz AS at,
                '{"a":[1]}'::jsonb AS doc, ARRAY[1, 2]::int8[] AS ids, '\\x0102'::bytea AS bytes,
                $1::text AS echoed`,
        ['hi'],
      )
      expect(rows).toEqual([
        {
          count: 1,
          huge: 9007199254740993n,
          price: '1.50',
          day: new Date('2024-01-02T00:00:00.000Z'),
          at: new Date('2024-01-02T03:04:05.678Z'),
          doc: { a: [1] },
          ids: [1, 2],
          bytes: expect.any(Uint8Array),
          echoed: 'hi',
        },
      ])
      await target.store.query('CREATE TABLE marks (n int); INSERT INTO marks VALUES (1), (2)')
      expect((await target.store.query('UPDATE marks SET n = n + 1')).affectedRows).toBe(2)
    })
  })
}

describe('PGlite under a data directory', () => {
  test('keeps every file private, 0600, and every directory 0700, whatever the umask', async () => {
    const root = mkdtempSync(join(tmpdir(), 'guard-pglite-files-'))
    folders.push(root)
    const dataDir = join(root, 'data')
    const umask = process.umask(0o022)
    try {
      const store = await openRelationalStore({ dataDir })
      // A relation created now: its files come from PostgreSQL itself, not from initdb.
      await store.query('CREATE TABLE later (id int)')
      await store.close()
    } finally {
      process.umask(umask)
    }
    const open: string[] = []
    for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name)
      const mode = statSync(path).mode & 0o777
      if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) open.push(`${path.slice(dataDir.length)} ${mode.toString(8)}`)
    }
    expect(open).toEqual([])
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
  }, 60_000)
})
