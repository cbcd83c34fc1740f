import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { report } from '../bin/cli-kit.ts'
import { runImport } from '../bin/commands/import.ts'
import { createDomainInput } from '../collector/src/services/domains/schemas.ts'
import { createGroupInput } from '../collector/src/services/groups/schemas.ts'
import { createHeartbeatInput } from '../collector/src/services/heartbeats/schemas.ts'
import { createMaintenanceWindowInput } from '../collector/src/services/maintenance-windows/schemas.ts'
import { createChannelInput } from '../collector/src/services/notifications/channels/schemas.ts'
import { type ProviderId, providerOf } from '../collector/src/services/notifications/providers/index.ts'
import { createServiceInput } from '../collector/src/services/services/schemas.ts'
import { createStatusPageInput } from '../collector/src/services/status-pages/schemas.ts'
import { tag } from '../collector/src/services/tags/schemas.ts'
import { sqliteAvailable } from '../shared/src/config-as-code/import/uptime-kuma/sqlite.ts'

const fixtures = join(import.meta.dirname, '../shared/src/config-as-code/import/uptime-kuma/fixtures')
const backup = join(fixtures, 'kuma-1.23-backup.json')
const hasSqlite = await sqliteAvailable()

const run = async (argv: string[]) => {
  const out: string[] = []
  const err: string[] = []
  const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) }
  // As dispatch runs it, with the output collected here (dispatch hands commands no Io).
  const code = await runImport(argv, io).catch((error: unknown) => report(error, 'import', io, false))
  return { code, stdout: out.join(''), stderr: err.join('') }
}

type Entry = { id: string } & Record<string, unknown>
type Document = Record<string, Entry[]>

/** Secrets as the operator would provide them: a value each field's own rules accept. */
function resolveSecrets(value: unknown, field = ''): unknown {
  if (typeof value === 'string' && /^\$\{env:/.test(value)) {
    if (/url/i.test(field)) return 'https://hooks.example.com/secret'
    if (field === 'token' || field === 'user') return 'a'.repeat(30)
    if (field === 'botToken') return `123456:${'a'.repeat(30)}`
    return 'secret-value'
  }
  if (Array.isArray(value)) return value.map((item) => resolveSecrets(item, field))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolveSecrets(inner, key)]))
  }
  return value
}

/** An entry as its create body: the document's id and references taken out, secrets resolved. */
function body(entry: Entry, ...references: string[]) {
  const fields = resolveSecrets(entry) as Record<string, unknown>
  for (const name of ['id', 'tags', 'group', 'dependsOn', 'channels', ...references]) delete fields[name]
  return fields
}

/** Every entry the importer wrote passes the REST API's create schema of its kind. */
function expectCreateBodies(document: Document) {
  const problems: string[] = []
  const check = (list: string, entry: Entry, parsed: { success: boolean; error?: { message: string } }) => {
    if (!parsed.success) problems.push(`${list}.${entry.id}: ${parsed.error?.message}`)
  }
  for (const entry of document.domains ?? []) check('domains', entry, createDomainInput.safeParse(body(entry)))
  for (const entry of document.services ?? []) check('services', entry, createServiceInput.safeParse(body(entry)))
  for (const entry of document.heartbeats ?? []) check('heartbeats', entry, createHeartbeatInput.safeParse(body(entry)))
  for (const entry of document.groups ?? []) check('groups', entry, createGroupInput.safeParse(body(entry, 'parent')))
  for (const entry of document.channels ?? []) {
    check('channels', entry, createChannelInput.safeParse(body(entry)))
    const provider = entry.provider as ProviderId
    // What the API adds to a new channel (a webhook's signing secret) before checking its settings.
    const generated = providerOf(provider).generateSecrets?.() ?? {}
    const config = { ...generated, ...(body(entry).config as object) }
    check('channels', entry, providerOf(provider).config.safeParse(config))
  }
  for (const entry of document.maintenance ?? []) {
    check('maintenance', entry, createMaintenanceWindowInput.safeParse(body(entry, 'monitors')))
  }
  for (const entry of document.statusPages ?? []) {
    check('statusPages', entry, createStatusPageInput.safeParse(body(entry, 'components')))
  }
  for (const entry of (document.tags ?? []) as Array<Entry & { name: string }>) {
    check('tags', entry, tag.safeParse(entry.name))
  }
  expect(problems).toEqual([])
}

describe('guard import uptime-kuma', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-import-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('writes a 1.x backup as guard.yaml to -o and the report to stderr', async () => {
    const output = join(dir, 'guard.yaml')
    const result = await run(['uptime-kuma', backup, '-o', output])
    expect(result).toMatchObject({ code: 0, stdout: '' })
    const text = await readFile(output, 'utf8')
    expect(text).toMatch(/^# Imported from Uptime Kuma 1\.23\.16 backup by `guard import uptime-kuma`/)
    const document = parse(text) as Document & { version: number }
    expect(document.version).toBe(1)
    expect(Object.keys(document)).toEqual([
      'version',
      'tags',
      'groups',
      'channels',
      'domains',
      'services',
      'heartbeats',
    ])
    expect(document.domains?.find((domain) => domain.id === 'docs-search')?.credentials).toEqual({
      username: 'reader',
      password: ['${env:', 'GUARD_DOMAIN_DOCS_SEARCH_PASSWORD}'].join(''),
    })
    expect(text).not.toContain('docs-secret')
    expect(text).not.toContain('blog-token')
    expect(text).not.toContain('discord.com/api/webhooks')
    expect(result.stderr).toContain('Imported from Uptime Kuma 1.23.16 backup: 3 domains, 3 services, 1 heartbeats')
    expect(result.stderr).toContain('GUARD_DOMAIN_DOCS_SEARCH_PASSWORD  (domains.docs-search.credentials.password)')
    expect(result.stderr).toContain('monitor "Kafka": Guard has no kafka-producer monitor')
  })

  it("writes entries each of which the API's create schema of its kind accepts", async () => {
    const result = await run(['uptime-kuma', backup])
    expect(result.code).toBe(0)
    expectCreateBodies(parse(result.stdout) as Document)
  })

  it.skipIf(!hasSqlite)("reads a 2.x kuma.db into entries the API's create schemas accept", async () => {
    const result = await run(['uptime-kuma', join(fixtures, 'kuma-2.db')])
    expect(result.code).toBe(0)
    const document = parse(result.stdout) as Document
    expect(Object.keys(document)).toEqual([
      'version',
      'tags',
      'groups',
      'channels',
      'domains',
      'services',
      'heartbeats',
      'maintenance',
      'statusPages',
    ])
    expectCreateBodies(document)
    expect(result.stderr).toContain('Imported from Uptime Kuma 2.x database')
  })

  it('refuses an unknown source kind, a missing file and a file that is no Uptime Kuma data', async () => {
    expect(await run(['nagios', backup])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unknown source 'nagios'; one of uptime-kuma"),
    })
    expect(await run(['uptime-kuma'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('name the uptime-kuma file'),
    })
    expect(await run(['uptime-kuma', join(dir, 'missing.db')])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('guard import: ENOENT'),
    })
    expect(await run(['uptime-kuma', join(import.meta.dirname, 'import-uptime-kuma.test.ts')])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('neither an SQLite database nor a JSON backup'),
    })
  })
})
