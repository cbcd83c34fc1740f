import { createServer as createHttpServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selfSignedCertificate } from '../../testing/certificate.ts'
import { closedPort, closeServer, listenLocal, startTarpit, testContext } from '../../testing/fixtures.ts'
import { type MqttBrokerFixture, startMqttBroker } from '../../testing/mqtt-broker.ts'
import { mqttChecker } from './check.ts'

const PASSWORD = 'mqtt-secret-7c2d90'

describe('mqttChecker', () => {
  let open: MqttBrokerFixture
  let guarded: MqttBrokerFixture
  let secure: MqttBrokerFixture

  beforeAll(async () => {
    open = await startMqttBroker({ deniedTopics: ['secret/#'] })
    guarded = await startMqttBroker({ users: { probe: PASSWORD } })
    secure = await startMqttBroker({ certificate: await selfSignedCertificate('mqtt-fixture') })
    await open.publish('plant/boiler/state', 'temperature=71 status=ok', true)
  })
  afterAll(async () => {
    await open.close()
    await guarded.close()
    await secure.close()
  })

  const check = (port: number, options: Record<string, unknown> = {}, context = testContext()) =>
    mqttChecker.check({ kind: 'mqtt', host: '127.0.0.1', port, ...options }, context)

  it('is up on CONNACK, with a generated client id and the connect and CONNACK times', async () => {
    const outcome = await check(open.port)
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThanOrEqual(0)
    expect(outcome.phases?.firstByteMs).toBeGreaterThan(0)
    expect(open.connects.at(-1)?.clientId).toMatch(/^guard-probe-[0-9a-f]{12}$/)
  })

  it('is up when a retained message on the topic matches, and reply_mismatch when none does', async () => {
    expect(await check(open.port, { topic: 'plant/+/state', messageContains: 'status=ok' })).toMatchObject({
      status: 'up',
    })
    const mismatch = await check(
      open.port,
      { topic: 'plant/#', messageMatches: 'status=(alarm|fault)' },
      testContext(400),
    )
    expect(mismatch).toMatchObject({
      status: 'down',
      errorKind: 'reply_mismatch',
      error: 'no message on "plant/#" matched within 400 ms; the last was "temperature=71 status=ok"',
    })
  })

  it('waits for a message published after it subscribed', async () => {
    const timer = setInterval(() => void open.publish('jobs/heartbeat', `tick ${Date.now()}`), 50)
    try {
      expect(await check(open.port, { topic: 'jobs/heartbeat', messageMatches: '^tick \\d+$' })).toMatchObject({
        status: 'up',
      })
    } finally {
      clearInterval(timer)
    }
  })

  it('is down with reply_mismatch when nothing arrives on the topic within the timeout', async () => {
    const started = performance.now()
    const outcome = await check(open.port, { topic: 'quiet/topic' }, testContext(300))
    expect(performance.now() - started).toBeLessThan(800)
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'reply_mismatch',
      error: 'no message on "quiet/topic" within 300 ms',
    })
  })

  it('is down with auth_failed when the broker refuses the subscription', async () => {
    expect(await check(open.port, { topic: 'secret/#' })).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
  })

  it('connects with the credentials, is down with auth_failed on a wrong password, and never reports it', async () => {
    const accepted = await check(guarded.port, { username: 'probe', secrets: { password: PASSWORD } })
    expect(accepted.status).toBe('up')
    expect(guarded.connects.at(-1)?.username).toBe('probe')
    const wrong = `${PASSWORD}-wrong`
    const refused = await check(guarded.port, { username: 'probe', secrets: { password: wrong } })
    expect(refused).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(refused.error).toMatch(/return code 4/)
    const anonymous = await check(guarded.port)
    expect(anonymous).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(JSON.stringify([accepted, refused, anonymous])).not.toContain(PASSWORD)
  })

  it('reports an untrusted certificate as tls_invalid, and is up with it when told to ignore it', async () => {
    const strict = await check(secure.port, { tls: true })
    expect(strict).toMatchObject({
      status: 'down',
      errorKind: 'tls_invalid',
      certificate: { valid: false, subject: 'CN=mqtt-fixture' },
    })
    const lenient = await check(secure.port, { tls: true, ignoreTlsErrors: true })
    expect(lenient).toMatchObject({ status: 'up', certificate: { valid: false, subject: 'CN=mqtt-fixture' } })
    expect(lenient.phases?.tlsMs).toBeGreaterThan(0)
  })

  it('is down with protocol_error against a server that does not speak MQTT', async () => {
    const http = createHttpServer((_request, response) => response.end())
    const port = await listenLocal(http)
    try {
      expect(await check(port)).toMatchObject({ status: 'down', errorKind: 'protocol_error' })
    } finally {
      await closeServer(http)
    }
  })

  it('is down with connect_refused when nothing listens', async () => {
    expect(await check(await closedPort())).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
  })

  it('ends within the timeout with timeout against a server that never answers CONNECT', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await check(tarpit.port, {}, testContext(300))
      expect(performance.now() - started).toBeLessThan(800)
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    } finally {
      await tarpit.close()
    }
  })

  it('refuses a loopback target unless private targets are allowed', async () => {
    const connects = open.connects.length
    expect(await check(open.port, {}, testContext(2000, false))).toMatchObject({
      status: 'down',
      errorKind: 'refused_private_target',
    })
    expect(open.connects.length).toBe(connects)
  })
})
