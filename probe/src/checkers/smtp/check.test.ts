import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SelfSignedPems, selfSignedCertificate } from '../../testing/certificate.ts'
import { closeServer, listenLocal, startTarpit, testContext } from '../../testing/fixtures.ts'
import {
  type MailServerFixture,
  type SmtpServerFixture,
  startPop3Server,
  startSmtpServer,
} from '../../testing/mail-servers.ts'
import { smtpChecker } from './check.ts'

const PASSWORD = 'smtp-secret-Zq81'
const users = { alice: PASSWORD }

describe('smtpChecker', () => {
  let certificate: SelfSignedPems
  let starttls: SmtpServerFixture
  let implicit: SmtpServerFixture
  let plainOnly: SmtpServerFixture
  let notSmtp: MailServerFixture

  beforeAll(async () => {
    certificate = await selfSignedCertificate('mail-fixture')
    starttls = await startSmtpServer({ certificate, users, banner: 'Guard fixture' })
    implicit = await startSmtpServer({ certificate, users, implicitTls: true })
    plainOnly = await startSmtpServer({ certificate, users, startTls: false })
    notSmtp = await startPop3Server({ certificate })
  })
  afterAll(async () => {
    await Promise.all([starttls.close(), implicit.close(), plainOnly.close(), notSmtp.close()])
  })

  const smtp = (port: number, options: Record<string, unknown> = {}) =>
    ({ kind: 'smtp', host: '127.0.0.1', port, ignoreTlsErrors: true, ...options }) as const

  it('is up after the banner, EHLO, STARTTLS and AUTH, reporting the certificate and each phase', async () => {
    const outcome = await smtpChecker.check(
      { ...smtp(starttls.port), username: 'alice', secrets: { password: PASSWORD } },
      testContext(),
    )
    expect(outcome).toMatchObject({
      status: 'up',
      statusCode: 220,
      address: '127.0.0.1',
      certificate: { valid: false, subject: 'CN=mail-fixture' },
    })
    expect(outcome.phases?.firstByteMs).toBeGreaterThan(0)
    expect(outcome.phases?.tlsMs).toBeGreaterThan(0)
    expect(starttls.authAttempts).toContain('alice')
  })

  it('is up over implicit TLS', async () => {
    const outcome = await smtpChecker.check(smtp(implicit.port, { tls: 'implicit' }), testContext())
    expect(outcome).toMatchObject({ status: 'up', certificate: { subject: 'CN=mail-fixture' } })
  })

  it('is up in plain text with tls none, without a certificate', async () => {
    const outcome = await smtpChecker.check(smtp(plainOnly.port, { tls: 'none' }), testContext())
    expect(outcome.status).toBe('up')
    expect(outcome.certificate).toBeUndefined()
  })

  it('is down with tls_invalid for a self-signed certificate, and never sends the credentials', async () => {
    const before = starttls.authAttempts.length
    const outcome = await smtpChecker.check(
      { ...smtp(starttls.port), ignoreTlsErrors: false, username: 'alice', secrets: { password: PASSWORD } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'tls_invalid', certificate: { valid: false } })
    expect(outcome.error).toMatch(/SELF_SIGNED/)
    expect(starttls.authAttempts.length).toBe(before)
  })

  it('is down with auth_failed on a refused password, which appears nowhere in the outcome', async () => {
    const wrong = 'not-the-password-Yk2'
    const outcome = await smtpChecker.check(
      { ...smtp(starttls.port), username: 'alice', secrets: { password: wrong } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(outcome.error).toMatch(/535/)
    expect(JSON.stringify(outcome)).not.toContain(wrong)
    expect(JSON.stringify(outcome)).not.toContain(Buffer.from(`\u0000alice\u0000${wrong}`).toString('base64'))
  })

  it('is down with protocol_error when STARTTLS was asked and the server does not offer it', async () => {
    const outcome = await smtpChecker.check(smtp(plainOnly.port), testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      error: 'the server does not offer STARTTLS',
    })
  })

  it('is down with status_mismatch when the banner has another code than expected', async () => {
    const outcome = await smtpChecker.check(smtp(starttls.port, { expectedBannerCode: 554 }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'status_mismatch', statusCode: 220 })
    expect(outcome.error).toMatch(/code is 220, expected 554/)
  })

  it('checks the banner keyword', async () => {
    const missing = await smtpChecker.check(smtp(starttls.port, { bannerKeyword: 'Postfix' }), testContext())
    expect(missing).toMatchObject({ status: 'down', errorKind: 'keyword_missing' })
    const present = await smtpChecker.check(smtp(starttls.port, { bannerKeyword: 'Guard fixture' }), testContext())
    expect(present.status).toBe('up')
  })

  it('is down with protocol_error when the server does not speak SMTP', async () => {
    const outcome = await smtpChecker.check(smtp(notSmtp.port), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'protocol_error' })
    expect(outcome.error).toMatch(/not an SMTP reply: "\+OK fixture ready"/)
  })

  it('is down with protocol_error when the server answers STARTTLS with more than its reply (command injection)', async () => {
    const injecting = createServer((socket) => {
      socket.write('220 injecting ESMTP\r\n')
      socket.on('data', (chunk) => {
        const line = chunk.toString()
        if (line.startsWith('EHLO')) socket.write('250-injecting\r\n250 STARTTLS\r\n')
        if (line.startsWith('STARTTLS')) socket.write('220 go ahead\r\n250 AUTH PLAIN\r\n')
      })
    })
    const port = await listenLocal(injecting)
    const outcome = await smtpChecker.check(smtp(port), testContext())
    await closeServer(injecting)
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      error: 'the server sent data before the TLS handshake',
    })
  })

  it('refuses 127.0.0.1 when private targets are not allowed', async () => {
    const outcome = await smtpChecker.check(smtp(starttls.port), testContext(2000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends within its timeout against a server that never sends a banner', async () => {
    const tarpit = await startTarpit()
    const started = performance.now()
    const outcome = await smtpChecker.check(smtp(tarpit.port), testContext(300))
    await tarpit.close()
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
