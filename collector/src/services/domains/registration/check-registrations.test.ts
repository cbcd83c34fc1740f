import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../../app.ts'
import { collectorForTest, eventsSettled, startReactionsForTest } from '../../../test-support.ts'
import { currentBootstrap } from './bootstrap.ts'
import { checkRegistrations } from './check-registrations.ts'
import { rdapAnswer, startFakeRdapServer } from './fake-rdap-server.ts'
import { lookUpRegistration, MAX_RDAP_BYTES } from './look-up.ts'
import { refreshBootstrap } from './refresh-bootstrap.ts'

const DAY = 86_400_000
const HOUR = 3_600_000
const SECRET = 's3cret-rdap-pass'
/** The recorded answer's expiry, the clock of the threshold tests is set against. */
const EXPIRY = new Date('2031-08-13T04:00:00Z')
const at = (ms: number) => new Date(EXPIRY.getTime() + ms)

describe('domain registration expiry over RDAP', () => {
  let fake: Awaited<ReturnType<typeof startFakeRdapServer>>
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  const auth = () => ({ authorization: `Bearer ${harness.apiKey}` })
  /** Every domain detail this file reads, searched for GUARD_RDAP_URL's password at the end. */
  const responses: string[] = []

  beforeAll(async () => {
    fake = await startFakeRdapServer()
    harness = await collectorForTest({
      GUARD_RDAP_URL: `${fake.origin.replace('http://', `http://guard:${SECRET}@`)}/`,
      GUARD_RDAP_TIMEOUT_MS: '2000',
    })
    app = await buildCollectorApp(harness.ctx)
    reactions = await startReactionsForTest(harness.ctx)
  })
  afterAll(async () => {
    await reactions.stop()
    await app.close()
    await harness.close()
    await fake.close()
  })

  const createDomain = async (url: string) => {
    const response = await app.inject({ method: 'POST', url: '/api/domains', headers: auth(), payload: { url } })
    expect(response.statusCode).toBe(201)
    return response.json().data.id as string
  }
  const registrationOf = async (id: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/domains/${id}`, headers: auth() })
    expect(response.statusCode).toBe(200)
    responses.push(response.body)
    return response.json().data.registration
  }
  const expiringThresholds = async (monitorId: string) => {
    const { rows } = await harness.ctx.sql.query<{ payload: string }>(
      `SELECT payload FROM monitoring.event_outbox WHERE subject = 'events.domain.expiring' AND id LIKE $1`,
      [`domain.expiring:${monitorId}:%`],
    )
    return rows.map((row) => JSON.parse(row.payload).data).sort((a, b) => b.threshold - a.threshold)
  }

  it('reads the expiry and registrar of a .com domain, and the detail counts the days left', async () => {
    const expiresAt = new Date(Date.now() + 45 * DAY + 12 * HOUR)
    fake.answers.set('days-left.com', { body: rdapAnswer('days-left.com', expiresAt) })
    const id = await createDomain('https://www.days-left.com/health')
    expect(await registrationOf(id)).toBeNull()

    const run = await checkRegistrations(harness.ctx)

    expect(run.lookedUp).toContain('days-left.com')
    expect(await registrationOf(id)).toEqual({
      domain: 'days-left.com',
      expiresAt: expiresAt.toISOString(),
      daysLeft: 45,
      registrar: 'Example Registrar, Inc.',
      checkedAt: expect.any(String),
    })
    expect(fake.requests.find((entry) => entry.path === '/domain/days-left.com')?.accept).toMatch(
      /^application\/rdap\+json/,
    )
  })

  it('asks RDAP once a day per registrable domain, whatever the monitors under it', async () => {
    fake.answers.set('cached.com', { body: rdapAnswer('cached.com', at(0)) })
    await createDomain('https://www.cached.com/')
    await createDomain('https://api.cached.com/v1/health')
    const start = Date.now()

    await checkRegistrations(harness.ctx, new Date(start))
    expect(fake.lookupsOf('cached.com')).toBe(1)
    await checkRegistrations(harness.ctx, new Date(start + 23 * HOUR))
    expect(fake.lookupsOf('cached.com')).toBe(1)
    await checkRegistrations(harness.ctx, new Date(start + 25 * HOUR))
    expect(fake.lookupsOf('cached.com')).toBe(2)
  })

  it('announces 30, 14, 7 and 1 days before expiry once each, across repeated runs and replicas', async () => {
    fake.answers.set('expiring.com', { body: rdapAnswer('expiring.com', EXPIRY) })
    fake.answers.set('late.com', { body: rdapAnswer('late.com', EXPIRY) })
    const id = await createDomain('https://expiring.com/')

    for (const clock of [-40 * DAY, -29.5 * DAY, -29.5 * DAY, -20 * DAY, -13.5 * DAY, -13 * DAY]) {
      await checkRegistrations(harness.ctx, at(clock))
    }
    const late = await createDomain('https://shop.late.com/')
    await checkRegistrations(harness.ctx, at(-6.9 * DAY))
    // Two replicas whose runs overlap announce nothing twice.
    await Promise.all([
      checkRegistrations(harness.ctx, at(-0.5 * DAY)),
      checkRegistrations(harness.ctx, at(-0.5 * DAY)),
    ])
    await checkRegistrations(harness.ctx, at(-0.25 * DAY))

    const announced = await expiringThresholds(id)
    expect(announced.map((data) => [data.threshold, data.daysLeft])).toEqual([
      [30, 29],
      [14, 13],
      [7, 6],
      [1, 0],
    ])
    expect(announced[0]).toMatchObject({
      monitorId: id,
      monitorKind: 'domain',
      target: 'https://expiring.com/',
      domain: 'expiring.com',
      expiresAt: EXPIRY.toISOString(),
      registrar: 'Example Registrar, Inc.',
    })
    // First seen inside 30, 14 and 7 days: only the nearest is announced.
    expect((await expiringThresholds(late)).map((data) => data.threshold)).toEqual([7, 1])
  })

  it('opens a low incident when the registration nears expiry, and resolves it when renewed', async () => {
    const expiry = at(100 * DAY)
    fake.answers.set('renewed.com', { body: rdapAnswer('renewed.com', expiry) })
    const id = await createDomain('https://renewed.com/')
    const incidentsOf = async () =>
      (
        await harness.ctx.sql.query<{ severity: string; impact: string; resolved_at: Date | null; title: string }>(
          `SELECT severity, impact, resolved_at, title FROM monitoring.incidents WHERE monitor_id = $1 AND cause = 'registration'`,
          [id],
        )
      ).rows

    await checkRegistrations(harness.ctx, new Date(expiry.getTime() - 20 * DAY))
    await eventsSettled(harness.ctx)
    expect(await incidentsOf()).toEqual([
      { severity: 'low', impact: 'none', resolved_at: null, title: 'Registration of renewed.com expires in 20 days' },
    ])

    const renewedUntil = new Date(expiry.getTime() + 365 * DAY)
    fake.answers.set('renewed.com', { body: rdapAnswer('renewed.com', renewedUntil) })
    const run = await checkRegistrations(harness.ctx, new Date(expiry.getTime() - 18 * DAY))
    expect(run.staged).toContain(`domain.renewed:${id}:${expiry.toISOString()}`)
    await eventsSettled(harness.ctx)
    expect((await incidentsOf()).map((incident) => incident.resolved_at)).toEqual([expect.any(Date)])
    const { rows: activity } = await harness.ctx.sql.query<{ summary: string }>(
      `SELECT summary FROM monitoring.activity WHERE subject_id = $1 AND type IN ('domain.expiring', 'domain.renewed') ORDER BY occurred_at`,
      [id],
    )
    expect(activity.map((row) => row.summary)).toEqual([
      'Registration of renewed.com (renewed.com) expires in 20 days',
      'Registration of renewed.com (renewed.com) renewed',
    ])
  })

  it('records why a lookup failed on the domain, without failing the run or the other domains', async () => {
    const expiresAt = new Date(Date.now() + 200 * DAY)
    const { events: _events, ...withoutExpiry } = rdapAnswer('no-expiry.de', expiresAt)
    const huge = { ...rdapAnswer('huge.com', expiresAt), remarks: [{ description: ['x'.repeat(MAX_RDAP_BYTES)] }] }
    fake.answers.set('garbage.com', { contentType: 'text/html', body: '<html><body>Parked</body></html>' })
    fake.answers.set('entity.com', { body: { objectClassName: 'entity', handle: 'X' } })
    fake.answers.set('other-name.com', { body: rdapAnswer('example.com', expiresAt) })
    fake.answers.set('huge.com', { body: huge })
    fake.answers.set('slow.com', { body: rdapAnswer('slow.com', expiresAt), delayMs: 4000 })
    fake.answers.set('broken.com', { status: 503, body: { errorCode: 503 } })
    fake.answers.set('no-expiry.de', { body: { ...withoutExpiry, events: [] } })
    fake.answers.set('fine.com', { body: rdapAnswer('fine.com', expiresAt) })
    const names = ['missing', 'garbage', 'entity', 'other-name', 'huge', 'slow', 'broken', 'fine']
    const ids = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await createDomain(`https://${name}.com/`)] as const)),
    )
    const deId = await createDomain('https://www.no-expiry.de/')

    const started = Date.now()
    await checkRegistrations(harness.ctx)
    expect(Date.now() - started).toBeLessThan(4000)

    const kinds = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, (await registrationOf(ids[name]!))?.error?.kind] as const)),
    )
    expect(kinds).toEqual({
      missing: 'not_found',
      garbage: 'malformed',
      entity: 'malformed',
      'other-name': 'malformed',
      huge: 'too_large',
      slow: 'timeout',
      broken: 'http_status',
      fine: undefined,
    })
    expect(await registrationOf(ids.missing!)).toEqual({
      domain: 'missing.com',
      expiresAt: null,
      daysLeft: null,
      checkedAt: expect.any(String),
      error: { kind: 'not_found', message: expect.stringMatching(/answered 404.*missing\.com/) },
    })
    expect(await registrationOf(deId)).toMatchObject({
      domain: 'no-expiry.de',
      expiresAt: null,
      registrar: 'Example Registrar, Inc.',
      error: { kind: 'no_expiration' },
    })

    // A failure after a good lookup keeps the expiry that lookup read.
    fake.answers.set('fine.com', { status: 500, body: {} })
    fake.answers.delete('slow.com')
    await checkRegistrations(harness.ctx, new Date(Date.now() + 25 * HOUR))
    expect(await registrationOf(ids.fine!)).toMatchObject({
      expiresAt: expiresAt.toISOString(),
      error: { kind: 'http_status' },
    })
  })

  it("sends GUARD_RDAP_URL's credentials as Basic auth and shows them in no answer, record or log line", async () => {
    const basic = `Basic ${Buffer.from(`guard:${SECRET}`).toString('base64')}`
    const lookups = fake.requests.filter((entry) => entry.path.startsWith('/domain/'))
    expect(lookups.length).toBeGreaterThan(0)
    expect(lookups.every((entry) => entry.authorization === basic)).toBe(true)
    expect(responses.length).toBeGreaterThan(0)
    expect(responses.join('\n')).not.toContain(SECRET)
    const { rows } = await harness.ctx.sql.query<{ error_message: string }>(
      'SELECT error_message FROM monitoring.domain_registrations WHERE error_message IS NOT NULL',
    )
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.map((row) => row.error_message).join('\n')).not.toContain(SECRET)

    const lines: string[] = []
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    const outcome = await refreshBootstrap(
      {
        ...harness.ctx,
        log,
        env: {
          ...harness.ctx.env,
          GUARD_RDAP_URL: undefined,
          GUARD_RDAP_BOOTSTRAP_URL: `${fake.origin.replace('http://', `http://guard:${SECRET}@`)}/no-such-bootstrap.json`,
        },
      },
      new Date(),
    )
    expect(outcome).toBe('failed')
    expect(lines.join('')).toContain('answered 404')
    expect(lines.join('')).not.toContain(SECRET)
  })

  it("refreshes the bootstrap, and vets its servers with the target guard where GUARD_RDAP_URL's are not", async () => {
    fake.files.set('/dns.json', {
      contentType: 'application/json',
      body: { version: '1.0', publication: '2026-01-01T00:00:00Z', services: [[['com'], [`${fake.origin}/`]]] },
    })
    const ctx = {
      ...harness.ctx,
      env: { ...harness.ctx.env, GUARD_RDAP_URL: undefined, GUARD_RDAP_BOOTSTRAP_URL: `${fake.origin}/dns.json` },
    }
    const later = new Date(Date.now() + 2 * DAY)
    expect(await refreshBootstrap(ctx, later)).toBe('refreshed')
    expect(await refreshBootstrap(ctx, new Date(later.getTime() + HOUR))).toBe('not-due')
    const bootstrap = await currentBootstrap(harness.ctx.sql)
    expect(bootstrap.services).toEqual([[['com'], [`${fake.origin}/`]]])

    fake.answers.set('guarded.com', { body: rdapAnswer('guarded.com', EXPIRY) })
    const env = { GUARD_RDAP_URL: undefined, GUARD_RDAP_TIMEOUT_MS: 300 }
    const refused = await lookUpRegistration({ ...env, GUARD_ALLOW_PRIVATE_TARGETS: false }, bootstrap, 'guarded.com')
    expect(refused.error?.kind).toBe('refused_private_target')
    expect(fake.lookupsOf('guarded.com')).toBe(0)

    const allowed = await lookUpRegistration({ ...env, GUARD_ALLOW_PRIVATE_TARGETS: true }, bootstrap, 'guarded.com')
    expect(allowed).toEqual({ expiresAt: EXPIRY.toISOString(), registrar: 'Example Registrar, Inc.' })
    const unknownTld = await lookUpRegistration({ ...env, GUARD_ALLOW_PRIVATE_TARGETS: true }, bootstrap, 'guarded.nl')
    expect(unknownTld.error?.kind).toBe('no_rdap_server')
  })
})
