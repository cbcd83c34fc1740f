import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { importUptimeKuma } from './import.ts'
import { formatReport, type ImportResult } from './report.ts'
import { sqliteAvailable } from './sqlite.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
// node:sqlite arrived in Node 22.5; CI runs Node 24. The backup needs no SQLite.
const hasSqlite = await sqliteAvailable()

/** The `${env:NAME}` reference written in place of a secret. */
const ref = (name: string) => ['${env:', name, '}'].join('')

const byId = (result: ImportResult) => {
  const { document } = result
  const all = [...document.domains, ...document.services, ...document.heartbeats]
  return (id: string) => all.find((entry) => entry.id === id)
}

describe.skipIf(!hasSqlite)('an Uptime Kuma 2.x database', () => {
  let result: ImportResult
  beforeAll(async () => {
    result = await importUptimeKuma(join(fixtures, 'kuma-2.db'))
  })
  const monitor = (id: string) => byId(result)(id)

  it('is recognised as 2.x by its knex migrations', () => {
    expect(result.origin).toBe('Uptime Kuma 2.x database')
  })

  it('maps an http monitor with basic auth, headers, status codes, redirects, TLS, tags, group and channels', () => {
    expect(monitor('shop-front')).toEqual({
      id: 'shop-front',
      url: 'https://shop.example.com/',
      name: 'Shop front',
      checkInterval: 30,
      failureThreshold: 4,
      headers: { 'X-Probe': 'kuma', Accept: 'text/html' },
      expectedStatus: ['200-299', 301],
      followRedirects: false,
      ignoreTlsErrors: true,
      authType: 'basic',
      credentials: { username: 'shop', password: ref('GUARD_DOMAIN_SHOP_FRONT_PASSWORD') },
      tags: ['production', 'team-web'],
      group: 'group-shop',
      channels: ['ops-slack', 'on-call-telegram'],
    })
  })

  it('maps an inverted keyword to keywordAbsent', () => {
    expect(monitor('shop-search')).toMatchObject({ keyword: 'results', keywordAbsent: true, group: 'group-shop' })
  })

  it('maps a json-query monitor with bearer auth, method, body and timeout', () => {
    expect(monitor('orders-api')).toEqual({
      id: 'orders-api',
      url: 'https://api.example.com/health',
      name: 'Orders API',
      checkInterval: 60,
      failureThreshold: 1,
      timeout: 20,
      method: 'POST',
      body: '{"deep":true}',
      expectedStatus: ['200-299'],
      jsonPath: { path: '$.status', equals: 'ok' },
      authType: 'bearer',
      credentials: { token: ref('GUARD_DOMAIN_ORDERS_API_TOKEN') },
      tags: ['team-backend'],
      channels: ['ops-slack', 'hook'],
    })
  })

  it('keeps a paused monitor, disabled', () => {
    expect(monitor('paused-site')).toMatchObject({ url: 'https://old.example.com/', enabled: false })
  })

  it('maps port, ping and dns monitors to tcp, icmp and dns services', () => {
    expect(monitor('database-port')).toEqual({
      id: 'database-port',
      name: 'Database port',
      checkInterval: 120,
      failureThreshold: 1,
      protocol: 'tcp',
      protocolConfig: { host: 'db.internal.example.com', port: 5432 },
    })
    expect(monitor('gateway-ping')).toMatchObject({ protocol: 'icmp', protocolConfig: { host: '10.0.0.1' } })
    expect(monitor('mail-dns')).toMatchObject({
      protocol: 'dns',
      protocolConfig: { host: 'example.com', recordType: 'MX', server: '1.1.1.1' },
    })
  })

  it('maps database monitors from their connection strings, the password as a reference', () => {
    expect(monitor('main-postgres')).toMatchObject({
      protocol: 'postgres',
      protocolConfig: {
        host: 'pg.example.com',
        port: 5433,
        username: 'monitor',
        password: ref('GUARD_SERVICE_MAIN_POSTGRES_PASSWORD'),
        database: 'app',
        query: 'SELECT 1',
      },
      tags: ['production'],
    })
    expect(monitor('cache')).toMatchObject({
      protocol: 'redis',
      protocolConfig: { host: 'cache.example.com', port: 6380, password: ref('GUARD_SERVICE_CACHE_PASSWORD') },
    })
    expect(monitor('orders-mysql')?.protocolConfig).toEqual({
      host: 'mysql.example.com',
      username: 'reader',
      password: ref('GUARD_SERVICE_ORDERS_MYSQL_PASSWORD'),
      database: 'orders',
    })
    expect(monitor('documents')?.protocolConfig).toEqual({ host: 'docs.example.com', port: 27017 })
  })

  it('maps mqtt and gRPC monitors to their protocols', () => {
    expect(monitor('broker')?.protocolConfig).toEqual({
      host: 'mqtt.example.com',
      port: 1883,
      username: 'probe',
      password: ref('GUARD_SERVICE_BROKER_PASSWORD'),
      topic: 'health/#',
      messageContains: 'alive',
    })
    expect(monitor('orders-grpc')).toMatchObject({
      protocol: 'grpc',
      protocolConfig: { host: 'grpc.example.com', port: 50051, service: 'orders.Orders' },
    })
  })

  it('maps WebSocket upgrade and SMTP monitors to their protocols', () => {
    expect(monitor('live-feed')).toMatchObject({
      protocol: 'websocket',
      protocolConfig: { host: 'ws.example.com', path: '/live', tls: true, subprotocols: ['graphql-ws'] },
    })
    expect(monitor('mail-server')).toMatchObject({
      protocol: 'smtp',
      protocolConfig: { host: 'mail.example.com', port: 587, tls: 'starttls' },
    })
  })

  it('maps a push monitor to a heartbeat and a group monitor to a group', () => {
    expect(result.document.heartbeats).toEqual([{ id: 'nightly-backup', name: 'Nightly backup', every: 86_400 }])
    expect(result.document.groups).toEqual([{ id: 'group-shop', name: 'Group: Shop' }])
  })

  it('maps notifications of providers Guard has, secrets as references, the default one on the default route', () => {
    expect(result.document.channels).toEqual([
      {
        id: 'ops-slack',
        name: 'Ops Slack',
        provider: 'slack',
        config: { webhookUrl: ref('GUARD_CHANNEL_OPS_SLACK_WEBHOOK_URL') },
      },
      {
        id: 'on-call-telegram',
        name: 'On-call Telegram',
        provider: 'telegram',
        config: { botToken: ref('GUARD_CHANNEL_ON_CALL_TELEGRAM_BOT_TOKEN'), chatId: '-1001234567890' },
        addToDefaultRoute: false,
      },
      {
        id: 'hook',
        name: 'Hook',
        provider: 'webhook',
        config: { url: 'https://hooks.example.com/kuma' },
        addToDefaultRoute: false,
      },
    ])
  })

  it('maps tags with values to key:value tags with the key colour', () => {
    expect(result.document.tags).toEqual([
      { id: 'production', name: 'production', color: '#dc2626' },
      { id: 'team', name: 'team', color: '#2563eb' },
      { id: 'team-web', name: 'team:web', color: '#2563eb' },
      { id: 'team-backend', name: 'team:backend', color: '#2563eb' },
    ])
  })

  it('maps weekly and one-off maintenance windows in their time zones', () => {
    expect(result.document.maintenance).toEqual([
      {
        id: 'sunday-patching',
        title: 'Sunday patching',
        startsAt: '2026-01-04T02:00:00.000Z',
        endsAt: '2026-01-04T04:00:00.000Z',
        recurrence: 'weekly',
        until: '2026-12-27T04:00:00.000Z',
        monitors: ['shop-front', 'main-postgres'],
      },
      {
        id: 'database-move',
        title: 'Database move',
        startsAt: '2026-03-01T21:00:00.000Z',
        endsAt: '2026-03-02T00:00:00.000Z',
        recurrence: 'none',
        until: null,
        monitors: ['database-port'],
      },
    ])
  })

  it('maps the status page with its monitors in order, away from a slug Guard keeps', () => {
    expect(result.document.statusPages).toEqual([
      {
        id: 'status-page',
        name: 'Example Status',
        slug: 'status-page',
        description: 'Live status of Example',
        isPublic: true,
        theme: 'dark',
        components: [{ monitor: 'shop-front' }, { monitor: 'orders-api' }, { monitor: 'main-postgres' }],
      },
    ])
  })

  it('lists what it could not map, with the reason', () => {
    expect(result.unmapped.map(({ source, item }) => `${source}: ${item}`)).toEqual([
      'notification: Ops Slack: slackchannel',
      'notification: Family Line',
      'monitor: Shop front: retry interval',
      'monitor: Database port: retry interval',
      'monitor: Nightly backup: push URL',
      'monitor: Orders gRPC: gRPC call',
      'monitor: Web container',
      'monitor: Minecraft',
      'maintenance: Monthly report run',
      'status page: Example Status: slug',
      'status page: Example Status: sections',
      'status page: Example Status: footer text, custom CSS, analytics, custom domain status.example.com',
    ])
    expect(result.unmapped.find((item) => item.item === 'Web container')?.reason).toBe('Guard has no docker monitor')
  })

  it('never writes a secret of the source', () => {
    const text = JSON.stringify(result.document)
    for (const secret of ['shop-secret', 'orders-token', 'pg-secret', 'redis-secret', 'my-secret', 'mqtt-secret']) {
      expect(text).not.toContain(secret)
    }
    expect(text).not.toContain('hooks.slack.com')
    expect(text).not.toContain('123456:ABC')
    expect(formatReport(result)).toContain(
      'GUARD_CHANNEL_OPS_SLACK_WEBHOOK_URL  (channels.ops-slack.config.webhookUrl)',
    )
  })
})

describe.skipIf(!hasSqlite)('an Uptime Kuma 1.x database', () => {
  it('reads the columns 1.x has and maps the same monitors', async () => {
    const result = await importUptimeKuma(join(fixtures, 'kuma-1.db'))
    expect(result.origin).toBe('Uptime Kuma 1.x database')
    expect(byId(result)('shop-front')).toMatchObject({ authType: 'basic', expectedStatus: ['200-299', 301] })
    // 1.x has no bearer token column.
    expect(byId(result)('orders-api')).not.toHaveProperty('credentials')
    expect(result.document.services.map((service) => service.id)).toHaveLength(11)
  })
})

describe('an Uptime Kuma 1.23 backup', async () => {
  const result = await importUptimeKuma(join(fixtures, 'kuma-1.23-backup.json'))
  const monitor = byId(result)

  it('maps its monitors from the backup field names', () => {
    expect(result.origin).toBe('Uptime Kuma 1.23.16 backup')
    expect(monitor('blog')).toEqual({
      id: 'blog',
      url: 'https://blog.example.org',
      name: 'Blog',
      checkInterval: 45,
      failureThreshold: 3,
      timeout: 36,
      authType: 'bearer',
      credentials: { token: ref('GUARD_DOMAIN_BLOG_TOKEN') },
      expectedStatus: ['200-299', 418],
      ignoreTlsErrors: true,
      tags: ['public', 'region-eu'],
      group: 'websites',
      channels: ['team-discord', 'mail-ops'],
    })
    expect(monitor('docs-search')).toMatchObject({
      keyword: 'Guard',
      authType: 'basic',
      credentials: { username: 'reader', password: ref('GUARD_DOMAIN_DOCS_SEARCH_PASSWORD') },
    })
    expect(monitor('status-json')).toMatchObject({
      jsonPath: { path: '$.components[0].state', equals: 'operational' },
    })
    expect(monitor('ssh')).toMatchObject({ protocol: 'tcp', protocolConfig: { host: 'ssh.example.org', port: 22 } })
    expect(monitor('router')).toMatchObject({ protocol: 'icmp', checkInterval: 20, timeout: 16 })
    expect(monitor('resolver')?.protocolConfig).toEqual({ host: 'example.org', recordType: 'TXT', server: '9.9.9.9' })
    expect(monitor('backup-job')).toEqual({ id: 'backup-job', name: 'Backup job', every: 3600, enabled: false })
  })

  it('maps its notifications: the default one on the default route, e-mail to its addresses', () => {
    expect(result.document.channels).toEqual([
      {
        id: 'team-discord',
        name: 'Team Discord',
        provider: 'discord',
        config: { webhookUrl: ref('GUARD_CHANNEL_TEAM_DISCORD_WEBHOOK_URL'), username: 'Kuma' },
      },
      {
        id: 'mail-ops',
        name: 'Mail ops',
        provider: 'email',
        config: { addresses: ['ops@example.org', 'oncall@example.org'] },
        addToDefaultRoute: false,
      },
    ])
  })

  it('lists what it could not map', () => {
    expect(result.unmapped.map(({ source, item, reason }) => `${source}: ${item}: ${reason}`)).toEqual([
      'notification: Mail ops: SMTP server: Guard sends e-mail through its own SMTP settings (GUARD_SMTP_URL)',
      'notification: Signal: Guard has no signal channel',
      'monitor: Router: retry interval: Guard retries at the check interval',
      'monitor: Backup job: push URL: Guard gives the heartbeat a new ping URL; point the job at it after apply',
      'monitor: Legacy app: upside-down mode (up when the check fails) has no Guard equivalent',
      'monitor: Kafka: Guard has no kafka-producer monitor',
    ])
  })
})

it('refuses a file that is neither a database nor a backup', async () => {
  await expect(importUptimeKuma(join(fixtures, 'make-fixture.ts'))).rejects.toThrow(
    'neither an SQLite database nor a JSON backup',
  )
})
