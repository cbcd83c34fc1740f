/**
 * Makes test/fixtures/upgrade/data-dir.tar.xz: the embedded data directory of a previous release,
 * for test/upgrade.e2e.test.ts. Run from the repository root:
 *
 *   npx tsx bin/make-upgrade-fixture.ts <commit>
 *
 * It checks `<commit>` out in a temporary worktree (node_modules hard-linked from this one), starts
 * that Guard embedded on a new data directory, creates a few of everything through its API, lets it
 * check a 127.0.0.1 fixture, pauses every check so the result count stays still, stops it with
 * SIGTERM and archives the data directory, with what the test needs to know in fixture.json.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { CONSOLE_SCOPE } from '../collector/src/console/identity-client.ts'
import { signInPublicClient } from '../identity/src/oauth/testing.ts'
import { collectorClient, eventually } from '../test/support/collector-client.ts'
import { startFixtureServer } from '../test/support/fixture-server.ts'
import { type GuardProcess, runGuard, spawnGuard } from '../test/support/spawn-guard.ts'

const commit = process.argv[2]
if (!commit) {
  console.error('usage: npx tsx bin/make-upgrade-fixture.ts <commit>')
  process.exit(2)
}
const REDIRECT = 'http://127.0.0.1:9/cb'
const repo = resolve(import.meta.dirname, '..')
const out = join(repo, 'test', 'fixtures', 'upgrade')
const sha = execFileSync('git', ['rev-parse', commit], { cwd: repo, encoding: 'utf8' }).trim()
const root = await mkdtemp(join(tmpdir(), 'guard-upgrade-fixture-'))
const oldTree = join(root, 'old')
const dataDir = join(root, 'data')

execFileSync('git', ['worktree', 'add', '--detach', oldTree, sha], { cwd: repo, stdio: 'inherit' })
const fixture = await startFixtureServer()
let guard: GuardProcess | undefined
try {
  // Hard links, no install: the old code runs on this tree's packages, which holds while the
  // lockfile has not changed a major version since that commit.
  for (const folder of await readdir(repo)) {
    const modules = join(repo, folder, 'node_modules')
    if (!(await stat(modules).catch(() => undefined)) || !(await stat(join(oldTree, folder)).catch(() => undefined))) {
      continue
    }
    execFileSync('cp', ['-al', modules, join(oldTree, folder, 'node_modules')])
  }
  execFileSync('cp', ['-al', join(repo, 'node_modules'), join(oldTree, 'node_modules')])
  const env = {
    GUARD_DATA_DIR: dataDir,
    GUARD_IDENTITY_PORT: String(await freePort()),
    GUARD_COLLECTOR_PORT: String(await freePort()),
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    GUARD_READ_CACHE_TTL_MS: '0',
  }
  guard = spawnGuard(['start'], env, join(oldTree, 'bin', 'guard.mjs'))
  const apiKey = (await guard.waitFor(/api key: (guard_\S+)/, 240_000))[1] as string
  await guard.waitFor(/collector: http/, 60_000)
  const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)
  const created = async (path: string, body: unknown) => {
    const response = await api.post(path, body)
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    return response.body.data as { id: string }
  }

  const group = await created('/api/groups', { name: 'Shop' })
  const shop = await created('/api/domains', {
    url: `${fixture.url}/shop`,
    name: 'Shop',
    checkInterval: 5,
    tags: ['env:prod', 'team:web'],
  })
  const blog = await created('/api/domains', { url: `${fixture.url}/blog`, name: 'Blog', checkInterval: 5 })
  const database = await created('/api/services', {
    name: 'Database',
    protocol: 'tcp',
    protocolConfig: { host: '127.0.0.1', port: Number(new URL(fixture.url).port) },
    checkInterval: 5,
    tags: ['env:prod'],
  })
  const nightly = await created('/api/heartbeats', { name: 'Nightly backup', every: 86_400, grace: 3600 })
  const heartbeat = (await api.get(`/api/heartbeats/${nightly.id}`)).body.data as { pingUrl: string }
  for (const suffix of ['/start', '', '/fail']) {
    const ping = await fetch(`${heartbeat.pingUrl}${suffix}`, { method: 'POST' })
    if (ping.status >= 300) throw new Error(`ping ${suffix}: ${ping.status}`)
  }
  const putOk = async (path: string, body: unknown) => {
    const response = await api.put(path, body)
    if (response.status >= 300) throw new Error(`PUT ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  }
  await putOk(`/api/groups/${group.id}/members`, {
    add: [
      { kind: 'domain', id: shop.id },
      { kind: 'service', id: database.id },
    ],
  })
  await putOk('/api/tags/env', { color: '#2f855a' })
  await putOk(`/api/monitors/${shop.id}/dependencies`, { dependsOn: [database.id] })
  await created('/api/slos', { name: 'Shop availability', subject: { kind: 'monitor', id: shop.id }, objective: 99.9 })
  const page = await created('/api/status-pages', { name: 'Acme status', slug: 'acme-status' })
  await created(`/api/status-pages/${page.id}/domains`, { domainId: shop.id })
  await created(`/api/status-pages/${page.id}/subscribers/import`, {
    emails: ['ann@example.org', 'bob@example.org'],
  })
  await created('/api/incidents', { title: 'Checkout slow', affectedDomains: [shop.id] })
  await created('/api/incidents', { title: 'Planned database upgrade' })

  // A first-party client, as the console is: its user tokens may mint API keys, which API keys may not.
  const identityUrl = `http://127.0.0.1:${env.GUARD_IDENTITY_PORT}`
  const client = await runGuard(
    [
      'identity',
      'clients',
      'create',
      '--name',
      'Upgrade fixture',
      '--redirect-uri',
      REDIRECT,
      '--public',
      '--first-party',
      ...CONSOLE_SCOPE.split(' ').flatMap((scope) => ['--scope', scope]),
    ],
    { ...env, GUARD_IDENTITY_URL: identityUrl },
    300_000,
    join(oldTree, 'bin', 'guard.mjs'),
  )
  if (client.code !== 0) throw new Error(`identity clients create (${client.code}): ${client.stdout} ${client.stderr}`)
  const clientId = (JSON.parse(client.stdout) as { client_id: string }).client_id
  const password = (await guard.waitFor(/admin: admin@guard\.local \/ (\S+)/))[1] as string
  const tokens = await signInPublicClient({
    identityUrl,
    clientId,
    redirectUri: REDIRECT,
    scope: CONSOLE_SCOPE,
    credentials: { email: 'admin@guard.local', password },
  })
  const key = await fetch(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci', permissions: ['domains:read'] }),
  })
  if (key.status !== 201) throw new Error(`POST /api-keys: ${key.status} ${await key.text()}`)
  const readKey = ((await key.json()) as { data: { key: string } }).data.key

  const monitors = [
    { path: `/api/domains/${shop.id}`, history: `/api/domains/${shop.id}/monitoring/history?limit=1000` },
    { path: `/api/domains/${blog.id}`, history: `/api/domains/${blog.id}/monitoring/history?limit=1000` },
  ]
  const results = async () => {
    const counts: number[] = []
    for (const monitor of monitors) counts.push(((await api.get(monitor.history)).body.data as unknown[]).length)
    return counts
  }
  await eventually(async () => ((await results()).every((count) => count >= 2) ? true : undefined), 'results', 60_000)
  for (const monitor of monitors) await putOk(monitor.path, { enabled: false })
  await putOk(`/api/services/${database.id}`, { enabled: false })
  // Paused: the counts read once two reads agree are the counts the archive holds.
  let settled = ''
  const counts = await eventually(
    async () => {
      const now = await results()
      const same = JSON.stringify(now) === settled
      settled = JSON.stringify(now)
      return same ? now : undefined
    },
    'no more results after the pause',
    30_000,
    6_000,
  )
  const stopped = await guard.stop('SIGTERM', 30_000)
  if (stopped !== 0) throw new Error(`the old Guard stopped with ${stopped}\n${guard.output()}`)

  await mkdir(out, { recursive: true })
  const made = { commit: sha, apiKey, readKey, clientId, results: counts }
  await writeFile(join(out, 'fixture.json'), `${JSON.stringify(made, null, 2)}\n`)
  const archive = join(out, 'data-dir.tar.xz')
  execFileSync('tar', ['-cJf', archive, '-C', dataDir, '.'])
  console.log(`${archive}: ${((await stat(archive)).size / 1024 / 1024).toFixed(2)} MB from ${sha}`)
} catch (error) {
  console.error(error, guard?.output())
  process.exitCode = 1
} finally {
  await guard?.stop('SIGKILL')
  await fixture.close()
  execFileSync('git', ['worktree', 'remove', '--force', oldTree], { cwd: repo, stdio: 'inherit' })
  await rm(root, { recursive: true, force: true })
}
