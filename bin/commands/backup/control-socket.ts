import { chmod, rm } from 'node:fs/promises'
import { connect, createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { GuardError, type Logger } from '@guard/shared'
import { z } from 'zod'
import type { BackupMade } from './make-backup.ts'

/**
 * How `guard backup` reaches a running `guard start`, which alone may read its PGlite and chDB: a
 * Unix socket in the data directory, mode 0600 in a 0700 directory, so only the account that owns
 * the data (which could read every file of it anyway) can ask. No network port, no key to leak.
 */
export const controlSocketPath = (dataDir: string) => join(dataDir, 'control.sock')

const request = z.object({ backup: z.object({ to: z.string().min(1) }) })
const answer = z.union([
  z.object({
    ok: z.literal(true),
    backup: z.object({ to: z.string(), bytes: z.number(), files: z.number(), ms: z.number() }),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
])
type Answer = z.infer<typeof answer>

/** Reads one newline-terminated JSON line from `socket`. */
function readLine(socket: Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      text += chunk
      const end = text.indexOf('\n')
      if (end < 0) return
      try {
        resolve(JSON.parse(text.slice(0, end)))
      } catch (error) {
        reject(error)
      }
    })
    socket.once('error', reject)
    socket.once('end', () => reject(new Error('the connection closed before a whole line')))
  })
}

/**
 * Serves backup requests on the data directory's control socket, one backup at a time. The
 * socket file left by a killed Guard is replaced: this process holds the data directory's lock.
 */
export async function serveControlSocket(input: {
  dataDir: string
  log: Logger
  backup: (to: string) => Promise<BackupMade>
}): Promise<{ close(): Promise<void> }> {
  const path = controlSocketPath(input.dataDir)
  await rm(path, { force: true })
  let running: Promise<BackupMade> | undefined
  const server = createServer((socket) => {
    const reply = (value: Answer) => socket.end(`${JSON.stringify(value)}\n`)
    readLine(socket)
      .then(async (raw) => {
        const parsed = request.safeParse(raw)
        if (!parsed.success) return reply({ ok: false, error: 'unknown request' })
        if (running) return reply({ ok: false, error: 'a backup is already running; try again when it is done' })
        running = input.backup(parsed.data.backup.to)
        try {
          const made = await running
          input.log.info({ backup: made }, 'backup written')
          reply({ ok: true, backup: made })
        } finally {
          running = undefined
        }
      })
      .catch((error: unknown) => {
        input.log.error({ err: error }, 'backup failed')
        if (!socket.destroyed) reply({ ok: false, error: error instanceof Error ? error.message : String(error) })
      })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => resolve())
  })
  await chmod(path, 0o600)
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
      }),
  }
}

/** Asks the Guard running on `dataDir` to write a backup into `to`, and waits for it. */
export async function requestBackup(dataDir: string, to: string): Promise<BackupMade> {
  const socket = connect(controlSocketPath(dataDir))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new GuardError(
          'SERVICE_UNAVAILABLE',
          `the Guard running on ${dataDir} does not answer on ${controlSocketPath(dataDir)} (${error.code ?? error.message}): only 'guard start' serves backups; stop the process that holds the directory and run the command again`,
        ),
      ),
    )
  })
  socket.write(`${JSON.stringify({ backup: { to } })}\n`)
  const parsed = answer.parse(await readLine(socket))
  if (!parsed.ok) throw new GuardError('CONFLICT', parsed.error)
  return parsed.backup
}
