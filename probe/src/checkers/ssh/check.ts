import { createHash } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { truncateText } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { DialogueError } from '../dialogue-error.ts'
import { elapsedSince, failed, roundMs } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'

/** RFC 4253 lets a server send other lines before its identification; this many bytes of them at most. */
const MAX_PREAMBLE_BYTES = 8192

const quote = (text: string) => JSON.stringify(truncateText(text, 200))

function connectSocket(address: string, port: number, signal: AbortSignal) {
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host: address, port, signal })
    socket.once('connect', () => {
      socket.removeListener('error', reject)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

/**
 * The server's identification line (`SSH-2.0-OpenSSH_9.6`), read without consuming it: the bytes
 * are put back on the socket, so the key exchange can start from the first byte.
 */
function readIdentification(socket: Socket, signal: AbortSignal) {
  return new Promise<string>((resolve, reject) => {
    let received = Buffer.alloc(0)
    const finish = (settle: () => void) => {
      socket.pause()
      socket.removeListener('data', onData)
      socket.removeListener('error', onError)
      socket.removeListener('close', onClose)
      signal.removeEventListener('abort', onAbort)
      socket.unshift(received)
      settle()
    }
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const lines = received.toString('latin1').split('\n')
      const ident = lines.slice(0, -1).find((line) => line.startsWith('SSH-'))
      if (ident !== undefined) finish(() => resolve(ident.replace(/\r$/, '')))
      else if (received.length > MAX_PREAMBLE_BYTES) {
        const first = (lines[0] ?? '').replace(/\r$/, '')
        finish(() => reject(new DialogueError('protocol_error', `not an SSH server: ${quote(first)}`)))
      }
    }
    const onError = (error: Error) => finish(() => reject(error))
    const onClose = () => {
      const said = (received.toString('latin1').split('\n')[0] ?? '').replace(/\r$/, '')
      const error = said ? `not an SSH server: ${quote(said)}` : 'the server closed the connection without identifying'
      finish(() => reject(new DialogueError('protocol_error', error)))
    }
    const onAbort = () => finish(() => reject(signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    socket.on('data', onData)
    socket.once('error', onError)
    socket.once('close', onClose)
  })
}

/** OpenSSH's form of a host key's fingerprint: `SHA256:` and the unpadded base64 digest. */
export const sshFingerprintOf = (key: Buffer) =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`

/**
 * Completes the key exchange on the socket (which proves the server holds the key it shows) and
 * resolves with the host key's fingerprint; never authenticates.
 */
async function exchangeKeys(socket: Socket, pinned: string, signal: AbortSignal): Promise<string> {
  const { Client } = await import('ssh2')
  return new Promise<string>((resolve, reject) => {
    const client = new Client()
    let seen: string | undefined
    const finish = (settle: () => void) => {
      signal.removeEventListener('abort', onAbort)
      client.removeAllListeners()
      client.on('error', () => {})
      client.end()
      socket.destroy()
      settle()
    }
    const onAbort = () => finish(() => reject(signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    client.once('handshake', () => finish(() => resolve(seen ?? pinned)))
    client.once('error', (error) => {
      if (seen !== undefined && seen !== pinned) {
        const changed = `the host key is ${seen}, not the pinned ${pinned}`
        finish(() => reject(new DialogueError('host_key_changed', changed)))
      } else {
        finish(() => reject(error))
      }
    })
    client.connect({
      sock: socket,
      username: 'guard-probe',
      readyTimeout: 0,
      hostVerifier: (key: Buffer) => {
        seen = sshFingerprintOf(key)
        return seen === pinned
      },
    })
  })
}

/**
 * Up when the server identifies as SSH 2; with `hostKeySha256`, also when the key exchange shows
 * that host key. The identification (and the fingerprint) are the outcome's `answers`.
 */
export const sshChecker: Checker<'ssh'> = {
  kind: 'ssh',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    let socket: Socket | undefined
    let measured: Partial<CheckOutcome> = {}
    try {
      const vetted = await vetTarget(target.host, context)
      const connecting = performance.now()
      socket = await connectSocket(vetted.address, target.port ?? 22, context.signal)
      const connectedAt = performance.now()
      const phases = { dnsMs: roundMs(vetted.lookupMs), connectMs: roundMs(connectedAt - connecting) }
      measured = { phases, address: vetted.address }
      const ident = await readIdentification(socket, context.signal)
      measured = {
        phases: { ...phases, firstByteMs: elapsedSince(connectedAt) },
        address: vetted.address,
        answers: [ident],
      }
      if (!/^SSH-(2\.0|1\.99)-/.test(ident)) {
        throw new DialogueError('protocol_error', `the server speaks another SSH version than 2: ${quote(ident)}`)
      }
      if (target.hostKeySha256 !== undefined) {
        const fingerprint = await exchangeKeys(socket, target.hostKeySha256, context.signal)
        measured = { ...measured, answers: [ident, fingerprint] }
      }
      return { status: 'up', responseTimeMs: elapsedSince(started), ...measured }
    } catch (error) {
      if (error instanceof DialogueError && !context.signal.aborted) {
        return {
          status: 'down',
          responseTimeMs: elapsedSince(started),
          ...measured,
          error: error.message,
          errorKind: error.kind,
        }
      }
      return failed(error, context, started, measured)
    } finally {
      socket?.destroy()
    }
  },
}
