import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeServer, listenLocal, startTarpit, testContext } from '../../testing/fixtures.ts'
import { type SshServerFixture, startSshServer } from '../../testing/ssh-server.ts'
import { sshChecker } from './check.ts'

/** Another key's fingerprint, in the same form. */
const OTHER_KEY = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'

describe('sshChecker', () => {
  let ssh: SshServerFixture
  let smtpLike: Server
  let smtpLikePort: number
  let sshOne: Server
  let sshOnePort: number

  beforeAll(async () => {
    ssh = await startSshServer()
    smtpLike = createServer((socket) => socket.end('220 mail.example ESMTP\r\n'))
    smtpLikePort = await listenLocal(smtpLike)
    sshOne = createServer((socket) => socket.end('SSH-1.5-Ancient\r\n'))
    sshOnePort = await listenLocal(sshOne)
  })
  afterAll(async () => {
    await Promise.all([ssh.close(), closeServer(smtpLike), closeServer(sshOne)])
  })

  it('is up with the server’s identification string as its answer', async () => {
    const outcome = await sshChecker.check({ kind: 'ssh', host: '127.0.0.1', port: ssh.port }, testContext())
    expect(outcome).toMatchObject({ status: 'up', answers: ['SSH-2.0-GuardFixture_1.0'], address: '127.0.0.1' })
    expect(outcome.phases?.firstByteMs).toBeGreaterThan(0)
  })

  it('is up when the key exchange shows the pinned host key, and reports its fingerprint', async () => {
    const outcome = await sshChecker.check(
      { kind: 'ssh', host: '127.0.0.1', port: ssh.port, hostKeySha256: ssh.fingerprint },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up', answers: ['SSH-2.0-GuardFixture_1.0', ssh.fingerprint] })
  })

  it('is down with host_key_changed naming both fingerprints when the key is another', async () => {
    const outcome = await sshChecker.check(
      { kind: 'ssh', host: '127.0.0.1', port: ssh.port, hostKeySha256: OTHER_KEY },
      testContext(),
    )
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'host_key_changed',
      error: `the host key is ${ssh.fingerprint}, not the pinned ${OTHER_KEY}`,
    })
  })

  it('is down with protocol_error when the server is not SSH', async () => {
    const outcome = await sshChecker.check({ kind: 'ssh', host: '127.0.0.1', port: smtpLikePort }, testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      error: 'not an SSH server: "220 mail.example ESMTP"',
    })
  })

  it('is down with protocol_error when the server speaks only SSH 1', async () => {
    const outcome = await sshChecker.check({ kind: 'ssh', host: '127.0.0.1', port: sshOnePort }, testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'protocol_error', answers: ['SSH-1.5-Ancient'] })
  })

  it('refuses 127.0.0.1 when private targets are not allowed', async () => {
    const outcome = await sshChecker.check({ kind: 'ssh', host: '127.0.0.1', port: ssh.port }, testContext(2000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends within its timeout against a server that never identifies', async () => {
    const tarpit = await startTarpit()
    const started = performance.now()
    const outcome = await sshChecker.check(
      { kind: 'ssh', host: '127.0.0.1', port: tarpit.port, hostKeySha256: OTHER_KEY },
      testContext(300),
    )
    await tarpit.close()
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
