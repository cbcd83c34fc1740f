import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SelfSignedPems, selfSignedCertificate } from '../../testing/certificate.ts'
import { closeServer, listenLocal, startTarpit, testContext } from '../../testing/fixtures.ts'
import { type MailServerFixture, startPop3Server } from '../../testing/mail-servers.ts'
import { pop3Checker } from './check.ts'

const PASSWORD = 'pop3 secret Wm5'
const users = { alice: PASSWORD }

describe('pop3Checker', () => {
  let certificate: SelfSignedPems
  let starttls: MailServerFixture
  let implicit: MailServerFixture
  let plainOnly: MailServerFixture
  let refusing: MailServerFixture

  beforeAll(async () => {
    certificate = await selfSignedCertificate('pop3-fixture')
    starttls = await startPop3Server({ certificate, users })
    implicit = await startPop3Server({ certificate, users, implicitTls: true })
    plainOnly = await startPop3Server({ certificate, users, startTls: false })
    refusing = await startPop3Server({ certificate, greeting: '-ERR maintenance' })
  })
  afterAll(async () => {
    await Promise.all([starttls.close(), implicit.close(), plainOnly.close(), refusing.close()])
  })

  const pop3 = (port: number, options: Record<string, unknown> = {}) =>
    ({ kind: 'pop3', host: '127.0.0.1', port, ignoreTlsErrors: true, ...options }) as const

  it('is up after the greeting, STLS, USER and PASS, reporting the certificate', async () => {
    const outcome = await pop3Checker.check(
      { ...pop3(starttls.port, { tls: 'starttls' }), username: 'alice', secrets: { password: PASSWORD } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up', certificate: { subject: 'CN=pop3-fixture' } })
    expect(starttls.commands).toEqual(expect.arrayContaining(['STLS', 'USER alice', `PASS ${PASSWORD}`]))
  })

  it('is up over implicit TLS', async () => {
    const outcome = await pop3Checker.check(pop3(implicit.port, { tls: 'implicit' }), testContext())
    expect(outcome).toMatchObject({ status: 'up', certificate: { subject: 'CN=pop3-fixture' } })
  })

  it('is down with auth_failed on a refused password, which appears nowhere in the outcome', async () => {
    const wrong = 'wrong-pop3-password-J3'
    const outcome = await pop3Checker.check(
      { ...pop3(starttls.port, { tls: 'starttls' }), username: 'alice', secrets: { password: wrong } },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(outcome.error).toMatch(/-ERR \[AUTH\]/)
    expect(JSON.stringify(outcome)).not.toContain(wrong)
  })

  it('keeps the password out of the error text when the server quotes it back', async () => {
    const echoing = createServer((socket) => {
      socket.write('+OK echo ready\r\n')
      socket.on('data', (chunk) => {
        const line = chunk.toString().trimEnd()
        socket.write(line.startsWith('PASS ') ? `-ERR wrong password ${line.slice(5)}\r\n` : '+OK\r\n')
      })
    })
    const port = await listenLocal(echoing)
    const outcome = await pop3Checker.check(
      { ...pop3(port, { tls: 'none' }), username: 'alice', secrets: { password: PASSWORD } },
      testContext(),
    )
    await closeServer(echoing)
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'auth_failed',
      error: 'the server refused the credentials: "-ERR wrong password ***"',
    })
    expect(JSON.stringify(outcome)).not.toContain(PASSWORD)
  })

  it('is down with tls_invalid for a self-signed certificate, before USER', async () => {
    const before = starttls.commands.length
    const outcome = await pop3Checker.check(
      {
        ...pop3(starttls.port, { tls: 'starttls', ignoreTlsErrors: false }),
        username: 'alice',
        secrets: { password: PASSWORD },
      },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'tls_invalid' })
    expect(starttls.commands.slice(before)).not.toContain('USER alice')
  })

  it('is down with protocol_error when the server does not offer STLS', async () => {
    const outcome = await pop3Checker.check(pop3(plainOnly.port, { tls: 'starttls' }), testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      error: 'STLS was refused: "-ERR unknown command"',
    })
  })

  it('is down with protocol_error when the greeting is not +OK', async () => {
    const outcome = await pop3Checker.check(pop3(refusing.port, { tls: 'none' }), testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      error: 'not a POP3 greeting: "-ERR maintenance"',
    })
  })

  it('refuses 127.0.0.1 when private targets are not allowed', async () => {
    const outcome = await pop3Checker.check(pop3(starttls.port), testContext(2000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends within its timeout against a server that never greets', async () => {
    const tarpit = await startTarpit()
    const started = performance.now()
    const outcome = await pop3Checker.check(pop3(tarpit.port, { tls: 'starttls' }), testContext(300))
    await tarpit.close()
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
