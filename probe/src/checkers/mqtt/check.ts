import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import type { CheckResult, ErrorKind } from '@guard/shared'
import { truncateText } from '@guard/shared'
import type { MqttClient } from 'mqtt'
import type { CheckContext, Checker, CheckOutcome } from '../../checker.ts'
import { certificateOf, certificateProblem } from '../certificate.ts'
import { elapsedSince, failed, roundMs, tlsErrorKind, untilAborted } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'
import { type OpenedConnection, openConnection } from './open-connection.ts'

type MqttTarget = Parameters<Checker<'mqtt'>['check']>[0]
type Verdict = Pick<CheckResult, 'status' | 'error' | 'errorKind'>

/** Loaded on the first MQTT check, so a probe that runs none never loads mqtt; reused after. */
let mqttClientClass: Promise<typeof MqttClient> | undefined
const loadMqttClient = () => {
  mqttClientClass ??= import('mqtt').then((module) => module.MqttClient)
  return mqttClientClass
}

/** The broker refused the CONNECT; `code` is its CONNACK return code (MQTT 3.1.1) or reason code (5). */
class ConnectRefusedError extends Error {
  override name = 'ConnectRefusedError'
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

/** 4 and 5 (3.1.1), 134 and 135 (5): bad user name or password, not authorized. */
const AUTH_CODES = new Set([4, 5, 134, 135])
/** 3 (3.1.1), 136 (5): server unavailable. */
const UNAVAILABLE_CODES = new Set([3, 136])

const refusalKind = (code: number): ErrorKind =>
  AUTH_CODES.has(code) ? 'auth_failed' : UNAVAILABLE_CODES.has(code) ? 'not_serving' : 'protocol_error'

const preview = (text: string) => JSON.stringify(truncateText(text, 100))

/** Resolves on CONNACK; rejects with the refusal, or why the connection ended before it. */
function connack(client: MqttClient, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      signal.removeEventListener('abort', onAbort)
      client.off('connect', onConnect).off('error', onError).off('close', onClose)
    }
    const onAbort = () => {
      settle()
      reject(signal.reason)
    }
    const onConnect = () => {
      settle()
      resolve()
    }
    const onError = (error: Error & { code?: unknown }) => {
      settle()
      reject(typeof error.code === 'number' ? new ConnectRefusedError(error.message, error.code) : error)
    }
    const onClose = () => {
      settle()
      reject(new Error('the server closed the connection without answering CONNECT'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
    client.once('connect', onConnect).once('error', onError).once('close', onClose)
  })
}

/** Whether the broker granted the subscription (SUBACK without a failure code). */
function subscribe(client: MqttClient, topic: string): Promise<boolean> {
  return new Promise((resolve, reject) =>
    client.subscribe(topic, { qos: 0 }, (error, granted) => {
      // mqtt.js reports a SUBACK failure code (0x80 and up) as an error with this text only.
      if (error?.message.startsWith('Subscribe error')) return resolve(false)
      if (error) return reject(error)
      resolve(!(granted ?? []).some((grant) => grant.qos === 128))
    }),
  )
}

const matches = (target: MqttTarget, payload: string) =>
  (target.messageContains === undefined || payload.includes(target.messageContains)) &&
  (target.messageMatches === undefined || new RegExp(target.messageMatches).test(payload))

/** Subscribes and waits for the first message that matches, until the check's timeout. */
async function messageVerdict(client: MqttClient, target: MqttTarget & { topic: string }, context: CheckContext) {
  let last: string | undefined
  let closed = false
  const arrived = new Promise<boolean>((resolve) => {
    const onAbort = () => resolve(false)
    context.signal.addEventListener('abort', onAbort, { once: true })
    client.once('close', () => {
      closed = true
      resolve(false)
    })
    client.on('message', (_topic, payload) => {
      last = payload.toString('utf8')
      if (!matches(target, last)) return
      context.signal.removeEventListener('abort', onAbort)
      resolve(true)
    })
  })
  if (!(await untilAborted(subscribe(client, target.topic), context.signal))) {
    const error = `the broker refused the subscription to ${preview(target.topic)}`
    return { status: 'down', error, errorKind: 'auth_failed' } satisfies Verdict
  }
  if (await arrived) return { status: 'up' } satisfies Verdict
  const error = closed
    ? `the broker closed the connection before a matching message on ${preview(target.topic)}`
    : last === undefined
      ? `no message on ${preview(target.topic)} within ${context.timeoutMs} ms`
      : `no message on ${preview(target.topic)} matched within ${context.timeoutMs} ms; the last was ${preview(last)}`
  return { status: 'down', error, errorKind: 'reply_mismatch' } satisfies Verdict
}

/**
 * Connects to an MQTT broker on the vetted address (SNI keeps the name), with the credentials
 * when given; up on CONNACK, or with a topic on the first matching message.
 */
export const mqttChecker: Checker<'mqtt'> = {
  kind: 'mqtt',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    let dnsMs: number | undefined
    let connecting = started
    let connection: OpenedConnection | undefined
    let connackAt: number | undefined
    let client: MqttClient | undefined
    const measured = (address: string) => ({
      responseTimeMs: elapsedSince(started),
      phases: {
        ...(dnsMs !== undefined ? { dnsMs } : {}),
        ...(connection ? { connectMs: roundMs(connection.connectedAt - connecting) } : {}),
        ...(connection?.secureAt !== undefined ? { tlsMs: roundMs(connection.secureAt - connection.connectedAt) } : {}),
        ...(connection && connackAt !== undefined
          ? { firstByteMs: roundMs(connackAt - (connection.secureAt ?? connection.connectedAt)) }
          : {}),
      },
      address,
      ...(connection?.tlsSocket ? { certificate: certificateOf(connection.tlsSocket) } : {}),
    })
    let address: string | undefined
    try {
      const password = target.secrets?.password
      if (password !== undefined && target.username === undefined) {
        const error = 'a password was given without a username, which MQTT does not allow'
        return { status: 'down', responseTimeMs: 0, error, errorKind: 'auth_failed' }
      }
      const vetted = await vetTarget(target.host, context)
      address = vetted.address
      dnsMs = roundMs(vetted.lookupMs)
      const MqttClient = await loadMqttClient()
      const secure = target.tls === true
      const port = target.port ?? (secure ? 8883 : 1883)
      connecting = performance.now()
      const tls = secure ? { servername: isIP(vetted.hostname) === 0 ? vetted.hostname : undefined } : undefined
      connection = await openConnection(vetted.address, port, tls, context.signal)
      const problem = connection.tlsSocket ? certificateProblem(connection.tlsSocket) : undefined
      if (problem && !target.ignoreTlsErrors) {
        return { status: 'down', error: problem, errorKind: tlsErrorKind(problem), ...measured(vetted.address) }
      }
      const socket = connection.socket
      client = new MqttClient(() => socket, {
        clientId: `guard-probe-${randomBytes(6).toString('hex')}`,
        protocolVersion: 4,
        clean: true,
        keepalive: 0,
        reconnectPeriod: 0,
        connectTimeout: context.timeoutMs,
        ...(target.username !== undefined ? { username: target.username } : {}),
        ...(password !== undefined ? { password } : {}),
      })
      // Errors are read where they matter (CONNACK, the wait for a message sees the close); an
      // unheard one, such as mqtt.js's own CONNACK timer firing after the check ended, would crash the probe.
      client.on('error', () => {})
      await connack(client, context.signal)
      connackAt = performance.now()
      const verdict: Verdict =
        target.topic === undefined
          ? { status: 'up' }
          : await messageVerdict(client, { ...target, topic: target.topic }, context)
      return { ...verdict, ...measured(vetted.address) }
    } catch (error) {
      const extra = address === undefined ? { responseTimeMs: elapsedSince(started) } : measured(address)
      if (error instanceof ConnectRefusedError) {
        const reason = `the broker refused the connection (return code ${error.code}): ${error.message}`
        return { status: 'down', error: truncateText(reason, 500), errorKind: refusalKind(error.code), ...extra }
      }
      if (connection && !context.signal.aborted && !(error as NodeJS.ErrnoException).code) {
        const reason = `the server did not answer as an MQTT broker: ${error instanceof Error ? error.message : error}`
        return { status: 'down', error: truncateText(reason, 500), errorKind: 'protocol_error', ...extra }
      }
      return failed(error, context, started, extra)
    } finally {
      client?.end(true)
      connection?.socket.destroy()
    }
  },
}
