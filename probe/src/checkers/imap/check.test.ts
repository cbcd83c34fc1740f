import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SelfSignedPems, selfSignedCertificate } from '../../testing/certificate.ts'
import { startTarpit, testContext } from '../../testing/fixtures.ts'
import { type MailServerFixture, startImapServer } from '../../testing/mail-servers.ts'
import { imapChecker } from './check.ts'

/** A quote and a backslash, which LOGIN must escape. */
const PASSWORD = 'imap "secret" \\ Hx4'
const users = { alice: PASSWORD }

describe('imapChecker', () => {
  let certificate: SelfSignedPems
  let starttls: MailServerFixture
  let implicit: MailServerFixture
  let plainOnly: MailServerFixture
  let refusing: MailServerFixture

  beforeAll(async () => {
    certificate = await selfSignedCertificate('imap-fixture')
    starttls = await startImapServer({ certificate, users })
    implicit = await startImapServer({ certificate, users, implicitTls: true })
    plainOnly = await startImapServer({ certificate, users, startTls: false })
    refusing = await startImapServer({ certificate, greeting: '* BYE too many connections' })
  })
  afterAll(async () => {
    await Promise.all([starttls.close(), implicit.close(), plainOnly.close(), refusing.close()])
  })

  const imap = (port: number, options: Record<string, unknown> = {}) =>
    ({ kind: 'imap', host: '127.0.0.1', port, ignoreTlsErrors: true, ...options }) as const

  it('is up after the greeting, STARTTLS and LOGIN, reporting the certificate', async () => {
    const outcome = await imapChecker.check(
      { ...imap(starttls.port, { tls: 'starttls' }), username: 'alice', secrets: { password: PASSWORD } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up', certificate: { subject: 'CN=imap-fixture' } })
    expect(outcome.phases?.tlsMs).toBeGreaterThan(0)
    expect(starttls.commands).toContainEqual(expect.stringMatching(/^g\d+ LOGIN "alice" /))
  })

  it('uses implicit TLS on a port given as implicit', async () => {
    const outcome = await imapChecker.check(
      { ...imap(implicit.port, { tls: 'implicit' }), username: 'alice', secrets: { password: PASSWORD } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up', certificate: { subject: 'CN=imap-fixture' } })
  })

  it('is down with auth_failed on a refused password, which appears nowhere in the outcome', async () => {
    const wrong = 'wrong-imap-password-Q7'
    const outcome = await imapChecker.check(
      { ...imap(starttls.port, { tls: 'starttls' }), username: 'alice', secrets: { password: wrong } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(outcome.error).toMatch(/AUTHENTICATIONFAILED/)
    expect(JSON.stringify(outcome)).not.toContain(wrong)
  })

  it('is down with tls_invalid for a self-signed certificate, before any LOGIN', async () => {
    const before = implicit.commands.length
    const outcome = await imapChecker.check(
      {
        ...imap(implicit.port, { tls: 'implicit', ignoreTlsErrors: false }),
        username: 'alice',
        secrets: { password: PASSWORD },
      },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'tls_invalid', certificate: { valid: false } })
    expect(implicit.commands.slice(before).some((line) => /LOGIN/.test(line))).toBe(false)
  })

  it('is down with protocol_error when the server does not offer STARTTLS', async () => {
    const outcome = await imapChecker.check(imap(plainOnly.port, { tls: 'starttls' }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'protocol_error' })
    expect(outcome.error).toMatch(/^STARTTLS was refused/)
  })

  it('is down with protocol_error when the greeting is BYE', async () => {
    const outcome = await imapChecker.check(imap(refusing.port, { tls: 'none' }), testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      error: 'the server refused the session: "* BYE too many connections"',
    })
  })

  it('refuses 127.0.0.1 when private targets are not allowed', async () => {
    const outcome = await imapChecker.check(imap(starttls.port), testContext(2000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends within its timeout against a server that never greets', async () => {
    const tarpit = await startTarpit()
    const started = performance.now()
    const outcome = await imapChecker.check(imap(tarpit.port, { tls: 'starttls' }), testContext(300))
    await tarpit.close()
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
