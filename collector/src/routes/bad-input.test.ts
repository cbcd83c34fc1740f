import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { malformedBodies, sampleHeartbeat } from '@guard/shared/testing'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { authenticateWithUsers, collectorForTest, seedIntegrationAccounts, userCaller } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>
type Body = Record<string, unknown>

/** Longer than `max` even once trimmed: schemas trim text before they measure it. */
const longerThan = (max: number) => fc.string({ minLength: max + 1, maxLength: max + 100 }).map((s) => `x${s}x`)
const oversized = longerThan(2099)
// A non-empty array: an empty one is a valid value of the array fields (tags, permissions).
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { minLength: 1, maxLength: 2 }),
)
const notANumber = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.boolean(),
  fc.constant(null),
  fc.double({ noInteger: true }),
)
const badInterval = fc.oneof(fc.integer({ max: 4 }), fc.integer({ min: 86_401 }), notANumber)
const badTimeout = fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 301 }), notANumber)
const badPercent = fc.oneof(
  fc.double({ min: 100.001, max: 1e9, noNaN: true }),
  fc.double({ max: -0.001, noNaN: true }),
  fc.string({ maxLength: 5 }),
  fc.boolean(),
  fc.constant(null),
)
const badThresholds = fc.oneof(
  notAString,
  fc.constantFrom(
    { cpu: { warning: 90, critical: 80 } },
    { cpu: { warning: 0, critical: 80 } },
    { memory: { warning: 50, critical: 101 } },
    { disk: { warning: 50 } },
    { gpu: { warning: 50, critical: 60 } },
  ),
)
const badBoolean = fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null))
const badUrl = fc.oneof(
  fc.constantFrom('', 'example.org', 'ftp://example.org', 'javascript:alert(1)', 'http://', '//x'),
  oversized.map((s) => `https://example.org/${s}`),
  notAString,
)
/** A status page's look: null clears the logo and the accent, so only other values are wrong there. */
const badLook = {
  theme: fc.oneof(notAString, fc.constantFrom('sepia', 'Dark', '')),
  accentColor: fc.oneof(fc.constantFrom('red', '#12345', '#1234567', 'ffffff', '#gggggg'), fc.integer()),
  logoUrl: fc.oneof(
    fc.constantFrom(
      '',
      'example.org',
      'ftp://example.org/logo.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://user:pass@cdn.example/logo.png',
    ),
    oversized.map((text) => `https://example.org/${text}`),
    fc.integer(),
    fc.boolean(),
  ),
  links: fc.oneof(
    notAString,
    fc.constantFrom(
      [{ label: 'x', url: 'javascript:alert(1)' }],
      [{ label: '', url: 'https://ok.example' }],
      [{ label: 'x' }],
      [{ label: 'x', url: 'https://ok.example', extra: 1 }],
      Array.from({ length: 11 }, () => ({ label: 'x', url: 'https://ok.example' })),
    ),
  ),
  timezone: fc.oneof(notAString, fc.constantFrom('Mars/Olympus', '', '+25:00'), oversized),
}
const badSlug = fc.oneof(
  fc.constantFrom('', 'ab', 'Upper', 'has space', '-lead', 'trail-', 'double--hyphen', 'api', 'é-page'),
  oversized,
)
/** Any field name no schema knows: strict schemas refuse it. */
const unknownField = fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue()).map(([key, value]) => ({
  [`x_${key}`]: value,
}))

/** Check options the probe could not run, or combinations the contract forbids (GET with a body). */
const badHttpOptions = {
  method: fc.constantFrom('TRACE', 'get', '', 1),
  headers: fc.constantFrom(
    { Host: 'evil.example' },
    { 'Content-Length': '1' },
    { 'bad name': 'x' },
    { 'X-A': 'a\r\nInjected: 1' },
    'x',
    [1],
  ),
  body: fc.string({ minLength: 1, maxLength: 20 }),
  expectedStatus: fc.constantFrom([], ['2xx'], [99], 'x', ['299-200x']),
  regex: fc.constantFrom('(', '[', '*', '(?<', 1),
  jsonPath: fc.constantFrom({ path: 'a' }, { path: '$[' }, { path: '' }, { path: '$.a[?(@.x==)]' }, 'x'),
  keywordAbsent: fc.constant(true),
  // Not null: on updates, null removes an option.
  degradedAboveMs: fc.oneof(
    fc.integer({ max: 0 }),
    fc.string({ maxLength: 5 }),
    fc.boolean(),
    fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
  ),
  credentials: fc.constantFrom({ token: 'x' }, { username: 'u' }, 'x'),
  locations: fc.constantFrom([], ['mars'], ['UPPER'], 'fra', [1]),
}

/**
 * A valid body with one field replaced by a bad value, an unknown field added, a string made
 * malformed Unicode (a Buffer when it is raw bytes), or no object at all.
 */
function invalidBodies(valid: Body, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const replaced = Object.entries(fields).map(([field, bad]) => bad.map((value) => ({ ...valid, [field]: value })))
  return fc.oneof(
    ...replaced,
    unknownField.map((extra) => ({ ...valid, ...extra })),
    malformedBodies(valid),
    fc.oneof(fc.string(), fc.integer(), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.constant(null)),
  )
}

describe('bad input on every write route: 4xx naming the problem, never 5xx, nothing stored', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let domainId: string
  let serviceId: string
  let heartbeatId: string
  let accounts: Awaited<ReturnType<typeof seedIntegrationAccounts>>
  let incidentId: string
  let windowId: string
  let sloId: string
  let groupId: string
  let device: { id: string; token: string }
  let pageId: string
  const published: string[] = []
  const headers = (token = harness.apiKey) => ({ authorization: `Bearer ${token}` })

  const snapshot = async () => {
    const tables = [
      'monitors',
      'heartbeats',
      'api_keys',
      'devices',
      'device_snapshots',
      'incidents',
      'incident_updates',
      'incident_comments',
      'maintenance_windows',
      'slos',
      'monitor_groups',
      'tag_colors',
      'monitor_dependencies',
      'notification_settings',
      'integration_accounts',
      'integration_monitors',
      'integration_authorizations',
      'status_pages',
      'status_page_components',
      'chat_conversations',
      'chat_messages',
    ]
    const rows = await Promise.all(
      tables.map(async (table) => {
        const { rows } = await harness.ctx.sql.query(`SELECT * FROM monitoring.${table} ORDER BY 1, 2`)
        return rows.map(({ last_used_at: _lastUsed, ...row }) => row)
      }),
    )
    return JSON.stringify(rows)
  }

  beforeAll(async () => {
    harness = await collectorForTest({
      GUARD_RATE_LIMIT_WRITE: '100000',
      GUARD_RATE_LIMIT_READ: '100000',
      GUARD_RATE_LIMIT_BULK: '100000',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { alice: userCaller('alice', [DEFAULT_ORGANIZATION.id]) }),
    })
    domainId = (
      await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers: headers(),
        payload: { url: 'https://keep.example' },
      })
    ).json().data.id
    serviceId = (
      await app.inject({
        method: 'POST',
        url: '/api/services',
        headers: headers(),
        payload: { name: 'keep', protocol: 'tcp', protocolConfig: { host: 'keep.example', port: 22 } },
      })
    ).json().data.id
    heartbeatId = (
      await app.inject({
        method: 'POST',
        url: '/api/heartbeats',
        headers: headers(),
        payload: { name: 'keep', every: 3600 },
      })
    ).json().data.id
    accounts = await seedIntegrationAccounts(harness.ctx, DEFAULT_ORGANIZATION.id, 'keep')
  })
  beforeAll(async () => {
    incidentId = (
      await app.inject({ method: 'POST', url: '/api/incidents', headers: headers(), payload: { title: 'keep' } })
    ).json().data.id
    windowId = (
      await app.inject({
        method: 'POST',
        url: '/api/maintenance-windows',
        headers: headers(),
        payload: { title: 'keep', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' },
      })
    ).json().data.id
    sloId = (
      await app.inject({
        method: 'POST',
        url: '/api/slos',
        headers: headers(),
        payload: { name: 'keep', subject: { kind: 'monitor', id: domainId }, objective: 99.9 },
      })
    ).json().data.id
    groupId = (
      await app.inject({ method: 'POST', url: '/api/groups', headers: headers(), payload: { name: 'keep' } })
    ).json().data.id
    await app.inject({ method: 'GET', url: '/api/notifications/settings', headers: headers() })
    device = (
      await app.inject({ method: 'POST', url: '/api/devices', headers: headers(), payload: { name: 'keep' } })
    ).json().data
    await harness.ctx.bus.subscribe('devices.>', (_data, subject) => published.push(subject))
    pageId = (
      await app.inject({
        method: 'POST',
        url: '/api/status-pages',
        headers: headers(),
        payload: { name: 'keep', slug: 'keep-page' },
      })
    ).json().data.id
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  const routes: Array<{
    name: string
    method: 'POST' | 'PUT' | 'PATCH'
    url: () => string
    token?: () => string
    bodies: () => fc.Arbitrary<unknown>
  }> = [
    {
      name: 'POST /api/domains',
      method: 'POST',
      url: () => '/api/domains',
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { url: 'https://example.org', checkInterval: 60 },
            {
              url: badUrl,
              name: fc.oneof(notAString, oversized, fc.constant('   ')),
              checkInterval: badInterval,
              timeout: badTimeout,
              isApi: badBoolean,
              authType: fc.oneof(
                fc.string({ maxLength: 6 }).filter((s) => !['none', 'basic', 'bearer'].includes(s)),
                notAString,
              ),
              tags: fc.oneof(notAString, fc.array(oversized, { minLength: 1, maxLength: 1 })),
              ...badHttpOptions,
            },
          ),
          // Credentials that do not fit the auth type.
          fc.constantFrom(
            { url: 'https://example.org', authType: 'basic' },
            { url: 'https://example.org', authType: 'bearer', credentials: { username: 'u', password: 'p' } },
            { url: 'https://example.org', authType: 'basic', credentials: { token: 't' } },
            {
              url: 'https://example.org',
              authType: 'bearer',
              credentials: { token: 't' },
              headers: { authorization: 'x' },
            },
          ),
          // A timeout not below the interval.
          fc.integer({ min: 5, max: 300 }).map((n) => ({ url: 'https://example.org', checkInterval: n, timeout: n })),
        ),
    },
    {
      name: 'PUT /api/domains/{id}',
      method: 'PUT',
      url: () => `/api/domains/${domainId}`,
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { name: 'ok' },
            {
              name: fc.oneof(notAString, oversized),
              checkInterval: badInterval,
              timeout: badTimeout,
              enabled: badBoolean,
              ...badHttpOptions,
              authType: fc.constantFrom('basic', 'bearer', 'digest'),
            },
          ),
          fc.integer({ min: 5, max: 300 }).map((n) => ({ checkInterval: n, timeout: n })),
        ),
    },
    {
      name: 'POST /api/services',
      method: 'POST',
      url: () => '/api/services',
      bodies: () =>
        invalidBodies(
          { name: 's', protocol: 'tcp', protocolConfig: { host: 'example.org', port: 22 } },
          {
            name: fc.oneof(notAString, oversized),
            protocol: fc.oneof(fc.constantFrom('gopher', 'ftp', ''), notAString),
            protocolConfig: fc.oneof(
              notAString,
              fc.integer({ min: 65_536 }).map((port) => ({ host: 'example.org', port })),
              fc.integer({ max: 0 }).map((port) => ({ host: 'example.org', port })),
              fc.constantFrom(
                { host: '', port: 1 },
                { host: 'bad host!', port: 1 },
                { port: 1 },
                { host: 'example.org' },
                { host: 'example.org', port: 22, recordType: 'A' },
                { host: 'example.org', port: 22, keyword: 'x' },
              ),
            ),
            locations: badHttpOptions.locations,
            checkInterval: badInterval,
            timeout: badTimeout,
          },
        ),
    },
    {
      name: 'POST /api/services (a protocol of the registry)',
      method: 'POST',
      url: () => '/api/services',
      bodies: () =>
        invalidBodies(
          { name: 'u', protocol: 'udp', protocolConfig: { host: 'example.org', port: 9 } },
          {
            protocolConfig: fc.oneof(
              notAString,
              fc.constantFrom(
                { host: 'example.org' },
                { host: 'example.org', port: 9, path: '/' },
                { host: 'example.org', port: 9, payloadEncoding: 'base64' },
                { host: 'example.org', port: 9, payloadEncoding: 'hex', payload: 'xyz' },
                { host: 'example.org', port: 9, replyMatches: '(' },
                { host: 'example.org', port: 9, replyContains: 'a', replyMatches: 'a' },
                { host: 'example.org', port: 9, payload: 'x'.repeat(8193) },
              ),
            ),
          },
        ),
    },
    {
      name: 'POST /api/heartbeats',
      method: 'POST',
      url: () => '/api/heartbeats',
      bodies: () =>
        invalidBodies(
          { name: 'h', every: 60 },
          {
            name: fc.oneof(notAString, oversized),
            every: fc.oneof(fc.integer({ max: 4 }), fc.integer({ min: 31_536_001 }), fc.constantFrom('60', true, 1.5)),
            cron: fc.oneof(fc.constantFrom('* * * * *', '61 * * * *', 'not a cron at all', ''), notAString),
            timezone: fc.oneof(fc.constantFrom('Mars/Olympus', ''), notAString),
            grace: fc.oneof(fc.integer({ max: -1 }), fc.constantFrom('60', true, 1.5)),
            maxDuration: fc.oneof(fc.integer({ max: 0 }), fc.constantFrom('60', true, 1.5)),
            tags: fc.constantFrom('x', [''], [1]),
          },
        ),
    },
    {
      name: 'PATCH /api/heartbeats/{id}',
      method: 'PATCH',
      url: () => `/api/heartbeats/${heartbeatId}`,
      bodies: () =>
        invalidBodies(
          { name: 'ok' },
          {
            name: fc.oneof(notAString, oversized),
            every: fc.oneof(fc.integer({ max: 4 }), fc.constantFrom('60', true, 1.5)),
            cron: fc.constantFrom('61 * * * *', 'not a cron at all', ''),
            grace: fc.oneof(fc.integer({ max: -1 }), fc.constantFrom('60', true, 1.5)),
            enabled: fc.constantFrom('yes', 1, null),
          },
        ),
    },
    {
      name: 'PUT /api/services/{id}',
      method: 'PUT',
      url: () => `/api/services/${serviceId}`,
      bodies: () =>
        invalidBodies(
          { name: 'ok' },
          {
            name: fc.oneof(notAString, oversized),
            protocolConfig: fc.constantFrom(
              { host: 'x.example' },
              { host: 'x.example', port: 0 },
              'x',
              null,
              { host: 'x.example', port: 1, count: 3 },
              { host: 'x.example', port: 1, authType: 'basic' },
            ),
            protocol: fc.constantFrom('gopher', 1, null, 'dns'),
            checkInterval: badInterval,
            enabled: badBoolean,
          },
        ),
    },
    {
      name: 'POST /api/monitors/test',
      method: 'POST',
      url: () => '/api/monitors/test',
      bodies: () =>
        invalidBodies(
          { location: 'fra', domain: { url: 'https://example.org' } },
          {
            location: fc.oneof(fc.constantFrom('', 'MARS', 'a', '*'), notAString),
            domain: fc.oneof(notAString, fc.constantFrom({ url: 'x' }, { url: 'https://example.org', regex: '(' }, {})),
            service: fc.constantFrom({ name: 's', protocol: 'tcp', protocolConfig: { host: 'example.org' } }),
          },
        ),
    },
    {
      name: 'POST /api-keys',
      method: 'POST',
      url: () => '/api-keys',
      token: () => 'user:alice',
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { name: 'k', permissions: ['domains:read'] },
            {
              name: fc.oneof(notAString, oversized, fc.constant('')),
              permissions: fc.oneof(
                notAString,
                fc.constant([]),
                fc.array(
                  fc.string({ maxLength: 12 }).filter((s) => !/^[a-z*]+:[a-z*]+$/.test(s)),
                  { minLength: 1, maxLength: 3 },
                ),
              ),
              scopes: fc.oneof(notAString, fc.constant(['domains:read'])),
              expires_at: fc.oneof(
                fc.constantFrom('yesterday', '2001-01-01T00:00:00Z', '9999-01-01T00:00:00Z', ''),
                fc.integer(),
              ),
            },
          ),
          fc.constant({ name: 'no permissions' }),
        ),
    },
    {
      name: 'POST /api/devices',
      method: 'POST',
      url: () => '/api/devices',
      bodies: () =>
        invalidBodies(
          { name: 'd' },
          {
            name: fc.oneof(notAString, oversized, fc.constant('  ')),
            tags: fc.oneof(notAString, fc.array(oversized, { minLength: 1, maxLength: 1 })),
            thresholds: badThresholds,
          },
        ),
    },
    {
      name: 'PUT /api/devices/{deviceId}',
      method: 'PUT',
      url: () => `/api/devices/${device.id}`,
      bodies: () => invalidBodies({ name: 'ok' }, { name: fc.oneof(notAString, oversized), thresholds: badThresholds }),
    },
    {
      name: 'POST /agent',
      method: 'POST',
      url: () => '/agent',
      token: () => device.token,
      bodies: () => {
        const valid = sampleHeartbeat(device.id)
        const metrics = valid.metrics
        return invalidBodies(valid, {
          device_id: fc.oneof(notAString, fc.constant(''), fc.string({ minLength: 1, maxLength: 10 })),
          metrics: fc.oneof(
            notAString,
            fc.constant({}),
            badPercent.map((usage_percent) => ({ ...metrics, cpu: { ...metrics.cpu, usage_percent } })),
            badPercent.map((usage_percent) => ({ ...metrics, disk: { ...metrics.disk, usage_percent } })),
            fc.integer({ max: 0 }).map((cores) => ({ ...metrics, cpu: { ...metrics.cpu, cores } })),
          ),
          timestamp: fc.oneof(
            fc.constantFrom('yesterday', '', '2001-01-01T00:00:00Z', '9999-01-01T00:00:00Z'),
            notAString,
          ),
          interval_seconds: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 3601 }), notANumber),
          system: fc.oneof(notAString, fc.constant({ hostname: 'h' })),
          processes: fc.oneof(
            notAString,
            fc.array(fc.record({ pid: fc.oneof(fc.integer({ max: -1 }), notANumber) }), { minLength: 1, maxLength: 2 }),
          ),
          connections: fc.oneof(
            notAString,
            fc.integer({ min: 65_536 }).map((local_port) => [
              {
                local_address: '::',
                local_port,
                remote_address: null,
                remote_port: null,
                protocol: 'tcp',
                status: 'LISTEN',
                process_name: 'x',
              },
            ]),
          ),
          network: fc.oneof(
            notAString,
            fc.constant([{ interface: 'eth0', rx_bytes_per_second: -1, tx_bytes_per_second: 0 }]),
          ),
        })
      },
    },
    {
      name: 'POST /api/chat/conversations',
      method: 'POST',
      url: () => '/api/chat/conversations',
      token: () => 'user:alice',
      bodies: () =>
        invalidBodies(
          { userMessage: 'q', assistantMessage: 'a' },
          {
            // Just past each limit; a generated 50 kB string only costs memory and shrinking time.
            userMessage: fc.oneof(notAString, fc.constant('  '), fc.constant('q'.repeat(20_001))),
            assistantMessage: fc.oneof(notAString, fc.constant('a'.repeat(50_001))),
            conversationId: fc.oneof(notAString, fc.constant(''), fc.string({ minLength: 1, maxLength: 20 })),
          },
        ),
    },
    {
      name: 'POST /api/status-pages',
      method: 'POST',
      url: () => '/api/status-pages',
      bodies: () =>
        invalidBodies(
          { name: 'p', slug: 'fresh-page' },
          {
            name: fc.oneof(notAString, oversized, fc.constant('  ')),
            slug: fc.oneof(notAString, badSlug, fc.constant('keep-page')),
            description: fc.oneof(notAString, oversized),
            isPublic: badBoolean,
            ...badLook,
          },
        ),
    },
    {
      name: 'PUT /api/status-pages/{id}',
      method: 'PUT',
      url: () => `/api/status-pages/${pageId}`,
      bodies: () =>
        invalidBodies(
          { name: 'ok' },
          {
            name: fc.oneof(notAString, oversized, fc.constant('  ')),
            slug: fc.oneof(notAString, badSlug),
            description: fc.oneof(notAString, oversized),
            isPublic: badBoolean,
            ...badLook,
          },
        ),
    },
    ...(['domain', 'service', 'device'] as const).map((kind) => ({
      name: `POST /api/status-pages/{id}/${kind}s`,
      method: 'POST' as const,
      url: () => `/api/status-pages/${pageId}/${kind}s`,
      bodies: () =>
        invalidBodies(
          { [`${kind}Id`]: 'not-ours' },
          {
            [`${kind}Id`]: fc.oneof(notAString, oversized, fc.constant(''), fc.string({ minLength: 1, maxLength: 20 })),
            displayName: fc.oneof(notAString, oversized, fc.constant('  ')),
          },
        ),
    })),
    {
      name: 'PUT /api/status-pages/{id}/components/order',
      method: 'PUT',
      url: () => `/api/status-pages/${pageId}/components/order`,
      bodies: () =>
        invalidBodies(
          { componentIds: ['a'] },
          {
            componentIds: fc.oneof(
              notAString,
              fc.constant([]),
              fc.constant(['a', 'a']),
              fc.array(oversized, { minLength: 1, maxLength: 1 }),
            ),
          },
        ),
    },
  ]

  const severity = fc.oneof(fc.constantFrom('urgent', 'CRITICAL', ''), notAString)
  const status = fc.oneof(fc.constantFrom('closed', 'OPEN', ''), notAString)
  const time = fc.oneof(fc.constantFrom('tomorrow', '2030-13-01T00:00:00Z', '', '2030-01-01'), notAString)
  // Fields where null is meaningful (clear it): every other non-string is still wrong.
  const notANullableString = notAString.filter((value) => value !== null)
  const nullableTime = fc.oneof(fc.constantFrom('tomorrow', '2030-13-01T00:00:00Z', ''), notANullableString)
  const badReceiverUrl = fc.oneof(
    fc.constantFrom('', 'example.org', 'ftp://example.org', 'javascript:alert(1)', 'http://', '//x'),
    oversized.map((text) => `https://example.org/${text}`),
    notANullableString,
  )
  routes.push(
    {
      name: 'POST /api/incidents',
      method: 'POST',
      url: () => '/api/incidents',
      bodies: () =>
        invalidBodies(
          { title: 'Outage', severity: 'high' },
          {
            title: fc.oneof(notAString, oversized, fc.constant('  ')),
            description: fc.oneof(notAString, longerThan(5000)),
            severity,
            impact: fc.oneof(fc.constantFrom('huge', ''), notAString),
            status: fc.oneof(fc.constant('resolved'), status),
            affectedDomains: fc.oneof(notAString, fc.constant(['no-such-domain']), fc.constant([''])),
            affectedServices: fc.oneof(notAString, fc.constant(['no-such-service'])),
            affectedDevices: fc.oneof(notAString, fc.array(oversized, { minLength: 1, maxLength: 1 })),
          },
        ),
    },
    {
      name: 'PUT /api/incidents/{id}',
      method: 'PUT',
      url: () => `/api/incidents/${incidentId}`,
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { severity: 'low' },
            { title: fc.oneof(notAString, oversized, fc.constant('')), severity, status, impact: notAString },
          ),
          fc.constant({}),
        ),
    },
    {
      name: 'POST /api/incidents/{id}/updates',
      method: 'POST',
      url: () => `/api/incidents/${incidentId}/updates`,
      bodies: () =>
        invalidBodies(
          { message: 'looking', status: 'investigating' },
          { message: fc.oneof(notAString, fc.constant(' '), longerThan(5000)), status },
        ),
    },
    {
      name: 'POST /api/incidents/{id}/comments',
      method: 'POST',
      url: () => `/api/incidents/${incidentId}/comments`,
      bodies: () =>
        invalidBodies(
          { content: 'note', isInternal: true },
          {
            content: fc.oneof(notAString, fc.constant(''), longerThan(5000)),
            isInternal: badBoolean,
          },
        ),
    },
    {
      name: 'POST /api/maintenance-windows',
      method: 'POST',
      url: () => '/api/maintenance-windows',
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { title: 'w', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' },
            {
              title: fc.oneof(notAString, oversized, fc.constant('')),
              startsAt: time,
              endsAt: fc.oneof(time, fc.constant('2029-12-31T00:00:00Z')),
              recurrence: fc.oneof(fc.constantFrom('monthly', 'hourly', ''), notAString),
              until: nullableTime,
              monitorId: fc.oneof(fc.constant('no-such-monitor'), fc.integer()),
            },
          ),
        ),
    },
    {
      name: 'PUT /api/maintenance-windows/{id}',
      method: 'PUT',
      url: () => `/api/maintenance-windows/${windowId}`,
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { title: 'w2' },
            {
              title: fc.oneof(notAString, fc.constant('')),
              startsAt: fc.oneof(time, fc.constant('2031-01-01T00:00:00Z')),
              recurrence: fc.constantFrom('monthly', 3),
            },
          ),
          fc.constant({}),
        ),
    },
    {
      name: 'POST /api/slos',
      method: 'POST',
      url: () => '/api/slos',
      bodies: () =>
        invalidBodies(
          { name: 's', subject: { kind: 'monitor', id: domainId }, objective: 99.9 },
          {
            name: fc.oneof(notAString, fc.constant(''), longerThan(200)),
            subject: fc.oneof(
              notAString,
              fc.constantFrom(
                { kind: 'device', id: 'x' },
                { kind: 'monitor', id: 'no-such-monitor' },
                { kind: 'group', id: 'no-such-group' },
                { kind: 'monitor' },
              ),
            ),
            objective: fc.oneof(badPercent, fc.constantFrom(0, 100)),
            window: fc.oneof(
              notAString,
              fc.constantFrom(
                { type: 'rolling', days: 0 },
                { type: 'rolling', days: 32 },
                { type: 'weekly' },
                { type: 'rolling' },
              ),
            ),
            burnAlerts: fc.oneof(
              notAString,
              fc.constant([{ budgetPercent: 2, longWindowMinutes: 60, shortWindowMinutes: 90 }]),
              fc.constant([{ budgetPercent: 0, longWindowMinutes: 60, shortWindowMinutes: 5 }]),
            ),
          },
        ),
    },
    {
      name: 'PUT /api/slos/{id}',
      method: 'PUT',
      url: () => `/api/slos/${sloId}`,
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { name: 's2' },
            {
              name: fc.oneof(notAString, fc.constant('')),
              objective: badPercent,
              window: fc.constantFrom({ type: 'calendar-month', days: 30 }, 'rolling'),
            },
          ),
          fc.constant({}),
        ),
    },
    {
      name: 'POST /api/groups',
      method: 'POST',
      url: () => '/api/groups',
      bodies: () =>
        invalidBodies(
          { name: 'g' },
          {
            name: fc.oneof(notAString, fc.constant(''), longerThan(100)),
            parentId: fc.oneof(fc.integer(), fc.boolean(), fc.constant(''), longerThan(64)),
            rule: fc.oneof(
              notAString,
              fc.constantFrom(
                { type: 'most' },
                { type: 'percent' },
                { type: 'percent', percent: 0 },
                { type: 'percent', percent: 101 },
                { type: 'all', percent: 50 },
              ),
            ),
            description: fc.oneof(fc.integer(), fc.boolean(), longerThan(1000)),
          },
        ),
    },
    {
      name: 'PUT /api/groups/{id}',
      method: 'PUT',
      url: () => `/api/groups/${groupId}`,
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { name: 'g2' },
            {
              name: fc.oneof(notAString, fc.constant('')),
              rule: fc.constantFrom({ type: 'percent', percent: 0 }, 'all'),
            },
          ),
          fc.constant({}),
        ),
    },
    {
      name: 'PUT /api/groups/{id}/members',
      method: 'PUT',
      url: () => `/api/groups/${groupId}/members`,
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { add: [{ kind: 'domain', id: domainId }] },
            {
              add: fc.oneof(
                notAString,
                fc.constantFrom([{ kind: 'planet', id: 'x' }], [{ kind: 'domain' }], [{ kind: 'domain', id: '' }]),
              ),
              remove: fc.oneof(notAString, fc.constant([{ id: domainId }])),
            },
          ),
          fc.constant({}),
        ),
    },
    {
      name: 'PUT /api/tags/{key}',
      method: 'PUT',
      url: () => '/api/tags/team',
      bodies: () =>
        invalidBodies(
          { color: '#112233' },
          { color: fc.oneof(notAString, fc.constantFrom('red', '#12345', '#1234567', '112233', '#gggggg')) },
        ),
    },
    {
      name: 'POST /api/monitors/bulk',
      method: 'POST',
      url: () => '/api/monitors/bulk',
      bodies: () =>
        invalidBodies(
          { action: 'pause', filter: { kinds: ['domain'] }, dryRun: true },
          {
            action: fc.oneof(notAString, fc.constantFrom('explode', 'addTag', 'setInterval')),
            filter: fc.oneof(
              notAString,
              fc.constantFrom({ kinds: [] }, { kinds: ['planet'] }, { ids: [] }, { tags: ['a b c'] }, { x: 1 }),
            ),
            dryRun: badBoolean,
          },
        ),
    },
    {
      name: 'PUT /api/monitors/{id}/dependencies',
      method: 'PUT',
      url: () => `/api/monitors/${domainId}/dependencies`,
      bodies: () =>
        invalidBodies(
          { dependsOn: [serviceId] },
          {
            dependsOn: fc.oneof(
              notAString,
              fc.constant([1]),
              fc.constant(['']),
              fc.constant(Array.from({ length: 51 }, (_, index) => `m${index}`)),
            ),
          },
        ),
    },
    {
      name: 'PUT /api/notifications/settings',
      method: 'PUT',
      url: () => '/api/notifications/settings',
      bodies: () =>
        fc.oneof(
          invalidBodies(
            { emailWeeklyReports: true },
            {
              emailNotifications: badBoolean,
              slackEnabled: badBoolean,
              webhookUrl: fc.oneof(
                badReceiverUrl,
                fc.constantFrom('http://example.org/hook', 'https://127.0.0.1/hook', 'https://10.0.0.1/hook'),
              ),
              slackWebhookUrl: fc.oneof(badReceiverUrl, fc.constantFrom('https://169.254.169.254/latest')),
              email: fc.oneof(notANullableString, fc.constantFrom('not-an-email', '@x', '')),
              rotateWebhookSecret: fc.oneof(badBoolean, fc.constant(false)),
            },
          ),
          fc.constant({ slackEnabled: true, slackWebhookUrl: null }),
          fc.constant({ rotateWebhookSecret: true }),
        ),
    },
  )

  const badIdentifier = fc.oneof(notAString, oversized, fc.constantFrom('', '../etc', 'a b', '-x', 'x/y'))
  const badSecret = fc.oneof(notAString, oversized, fc.constant(''))
  /** Monitor settings that are invalid on their own, so no platform is called. */
  const badMonitorSettings = fc.oneof(
    invalidBodies(
      { name: 'x' },
      { name: fc.oneof(notAString, oversized, fc.constant('  ')), checkInterval: badInterval, timeout: badTimeout },
    ).filter((body) => body !== null),
  )
  // Toolbox: every body here is refused before a probe is asked (none listens in this test).
  const badHost = fc.oneof(notAString, oversized, fc.constant(''))
  const badLocation = fc.constantFrom('UPPER', '', 'a b', 1)
  routes.push(
    {
      name: 'POST /api/toolbox/dns-lookup',
      method: 'POST',
      url: () => '/api/toolbox/dns-lookup',
      bodies: () =>
        invalidBodies(
          { domain: 'example.org', record_type: 'MX' },
          {
            domain: badHost,
            record_type: fc.constantFrom('XYZ', 'mx', '', 1, 'PTR'),
            server: fc.constantFrom('999.1.1.1', 'dns.example', '1.1.1.1:99999x', 1),
            location: badLocation,
          },
        ),
    },
    {
      name: 'POST /api/toolbox/port-scanner',
      method: 'POST',
      url: () => '/api/toolbox/port-scanner',
      bodies: () =>
        invalidBodies(
          { target: 'example.org', scanType: 'quick' },
          {
            target: badHost,
            scanType: fc.constantFrom('huge', '', 1),
            ports: fc.constantFrom('80-22', 'abc', '0', '70000', '1,,2', [0], [70_000], [], 'x'),
            protocol: fc.constantFrom('udp', '', 1),
            timeout: fc.oneof(fc.integer({ max: 49 }), fc.integer({ min: 10_001 }), notANumber),
            location: badLocation,
          },
        ),
    },
    {
      name: 'POST /api/toolbox/ip-scanner',
      method: 'POST',
      url: () => '/api/toolbox/ip-scanner',
      bodies: () => invalidBodies({ ip: '8.8.8.8' }, { ip: badHost, location: badLocation }),
    },
  )
  routes.push(
    {
      name: 'POST /api/cloud-a/accounts',
      method: 'POST',
      url: () => '/api/cloud-a/accounts',
      bodies: () =>
        invalidBodies(
          { tenantId: 't', clientId: 'c', clientSecret: 's', subscriptionId: 'x' },
          { tenantId: badIdentifier, clientId: badIdentifier, clientSecret: badSecret, subscriptionId: badIdentifier },
        ),
    },
    {
      name: 'POST /api/selfhost-b/instances',
      method: 'POST',
      url: () => '/api/selfhost-b/instances',
      bodies: () =>
        invalidBodies(
          { name: 'lab', url: 'https://lab.example', apiKey: 'k' },
          {
            name: fc.oneof(notAString, oversized, fc.constant('')),
            url: fc.oneof(
              badUrl,
              fc.constantFrom('https://u:p@lab.example', 'https://lab.example/?q=1', 'https://lab.example/#x'),
            ),
            apiKey: badSecret,
          },
        ),
    },
    {
      name: 'POST /api/webhost-c/accounts',
      method: 'POST',
      url: () => '/api/webhost-c/accounts',
      // It takes no fields: anything but an empty body or `{}` is refused.
      bodies: () => fc.oneof(unknownField, fc.string(), fc.integer(), fc.array(fc.jsonValue(), { maxLength: 3 })),
    },
    ...(
      [
        ['cloud-a', 'accounts', 'cloudA', 'services'],
        ['selfhost-b', 'instances', 'selfhostB', 'resources'],
        ['webhost-c', 'accounts', 'webhostC', 'projects'],
      ] as const
    ).map(([provider, collection, account, items]) => ({
      name: `POST /api/${provider}/${collection}/{id}/${items}/{itemId}/monitor`,
      method: 'POST' as const,
      url: () => `/api/${provider}/${collection}/${accounts[account]}/${items}/some-item/monitor`,
      bodies: () => badMonitorSettings,
    })),
  )

  for (const route of routes) {
    it(`${route.name} answers 4xx with a message and stores nothing`, async () => {
      const before = await snapshot()
      await fc.assert(
        fc.asyncProperty(route.bodies(), async (body) => {
          const payload = Buffer.isBuffer(body) ? body : JSON.stringify(body)
          const response = await app.inject({
            method: route.method,
            url: route.url(),
            headers: { ...headers(route.token?.()), 'content-type': 'application/json' },
            payload,
          })
          expect(response.statusCode, `${payload.toString().slice(0, 300)} -> ${response.body}`).toBeGreaterThanOrEqual(
            400,
          )
          expect(response.statusCode).toBeLessThan(500)
          // The budgets are set high: a 429 here would hide the answer to the body itself.
          expect(response.statusCode).not.toBe(429)
          expect(response.json().message).toEqual(expect.any(String))
        }),
        { numRuns: 60 },
      )
      expect(await snapshot()).toBe(before)
      expect(published).toEqual([])
    })
  }

  it.each([
    ['a body that is not JSON', 'application/json', '{"url": '],
    ['a body over the 1 MiB limit', 'application/json', `{"url":"https://example.org/${'a'.repeat(1_100_000)}"}`],
    ['a form body', 'application/x-www-form-urlencoded', 'url=https://example.org'],
  ])('refuses %s on every write route', async (_name, contentType, payload) => {
    const before = await snapshot()
    for (const [method, url] of [
      ['POST', '/api/domains'],
      ['PUT', `/api/domains/${domainId}`],
      ['POST', '/api/services'],
      ['PUT', `/api/services/${serviceId}`],
      ['POST', '/api/heartbeats'],
      ['PATCH', `/api/heartbeats/${heartbeatId}`],
      ['POST', '/api/cloud-a/accounts'],
      ['POST', '/api/selfhost-b/instances'],
      ['POST', '/api/webhost-c/accounts'],
      ['POST', '/api/incidents'],
      ['PUT', `/api/incidents/${incidentId}`],
      ['POST', `/api/incidents/${incidentId}/updates`],
      ['POST', `/api/incidents/${incidentId}/comments`],
      ['POST', '/api/maintenance-windows'],
      ['PUT', `/api/maintenance-windows/${windowId}`],
      ['POST', '/api/slos'],
      ['PUT', `/api/slos/${sloId}`],
      ['POST', '/api/groups'],
      ['PUT', `/api/groups/${groupId}`],
      ['PUT', `/api/groups/${groupId}/members`],
      ['PUT', '/api/tags/team'],
      ['POST', '/api/monitors/bulk'],
      ['PUT', `/api/monitors/${domainId}/dependencies`],
      ['PUT', '/api/notifications/settings'],
      ['POST', '/api/toolbox/dns-lookup'],
      ['POST', '/api/toolbox/port-scanner'],
      ['POST', '/api/toolbox/ip-scanner'],
    ] as const) {
      const response = await app.inject({
        method,
        url,
        headers: { ...headers(), 'content-type': contentType },
        payload,
      })
      expect([400, 413, 415], `${method} ${url}`).toContain(response.statusCode)
    }
    expect(await snapshot()).toBe(before)
  })

  it('GET /api/usage answers 4xx naming organizationId for one too long, repeated or not the caller’s', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s !== DEFAULT_ORGANIZATION.id),
          oversized,
        ),
        fc.boolean(),
        async (organizationId, repeated) => {
          const value = encodeURIComponent(organizationId)
          const query = repeated ? `organizationId=${value}&organizationId=${value}` : `organizationId=${value}`
          const response = await app.inject({ method: 'GET', url: `/api/usage?${query}`, headers: headers() })
          expect([400, 403], `${organizationId} -> ${response.body}`).toContain(response.statusCode)
          expect(response.json().message).toMatch(/organization/i)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('GET /api/heartbeats/{id}/daily answers 400 naming days for a range it does not keep, one row a day otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -1000, max: 1000 }).map(String), oversized),
        async (days) => {
          const response = await app.inject({
            method: 'GET',
            url: `/api/heartbeats/${heartbeatId}/daily?days=${encodeURIComponent(days)}`,
            headers: headers(),
          })
          // The query is read as a number the way zod's coerce reads it (Number), so ' 7' and '0x7' are 7.
          const wanted = Number(days)
          if (Number.isInteger(wanted) && wanted >= 1 && wanted <= 90) {
            expect(response.statusCode, `${days} -> ${response.body}`).toBe(200)
            expect(response.json().data).toHaveLength(wanted)
          } else {
            expect(response.statusCode, `${days} -> ${response.body}`).toBe(400)
            expect(response.json().message).toContain('days')
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  // These two were 500s: the check's options are stored as JSON, which PostgreSQL refuses with a lone surrogate.
  it.each([
    ['a check header', { url: 'https://example.org', headers: { 'X-A': 'v\ud83d' } }, 'body.headers.X-A'],
    ['a regex', { url: 'https://example.org', regex: 'a\ud83d' }, 'body.regex'],
    ['a name', { url: 'https://example.org', name: 'a\udc00' }, 'body.name'],
    ['a tag', { url: 'https://example.org', tags: ['\ud83d'] }, 'body.tags.0'],
  ])('refuses a domain with a lone surrogate in %s: 400 naming it, nothing stored', async (_what, body, where) => {
    const before = await snapshot()
    const response = await app.inject({ method: 'POST', url: '/api/domains', headers: headers(), payload: body })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toEqual({
      success: false,
      error: 'VALIDATION_ERROR',
      message: `${where} contains a lone surrogate`,
    })
    expect(await snapshot()).toBe(before)
  })

  it('answers 404, not 5xx, for deletes and checks of ids that do not exist or are malformed', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/domains/does-not-exist'],
      ['DELETE', `/api/domains/${'x'.repeat(65)}`],
      ['DELETE', '/api/services/does-not-exist'],
      ['POST', '/api/services/does-not-exist/check'],
      ['DELETE', '/api/heartbeats/does-not-exist'],
      ['POST', '/api/heartbeats/does-not-exist/regenerate-token'],
      ['GET', '/ping/does-not-exist-token-0000'],
      ['POST', '/ping/does-not-exist-token-0000/start'],
      ['DELETE', '/api/cloud-a/accounts/does-not-exist'],
      ['DELETE', `/api/selfhost-b/instances/${'x'.repeat(65)}`],
      ['GET', '/api/webhost-c/accounts/does-not-exist/projects'],
      ['POST', '/api/cloud-a/accounts/does-not-exist/services/x/monitor'],
      ['PUT', '/api/incidents/does-not-exist'],
      ['POST', '/api/incidents/does-not-exist/comments'],
      ['DELETE', '/api/maintenance-windows/does-not-exist'],
      ['DELETE', '/api/slos/does-not-exist'],
      ['GET', '/api/slos/does-not-exist'],
      ['PUT', '/api/notifications/does-not-exist/read'],
    ] as const) {
      const response = await app.inject({ method, url, headers: headers() })
      expect([400, 404], `${method} ${url}`).toContain(response.statusCode)
    }
  })
})
