import { createServer } from 'node:net'
import { type DataDirLock, DataDirLockedError, GuardError, lockDataDir } from '@guard/shared'

export interface Listener {
  name: string
  host: string
  port: number
}

/** Binds and releases the address at once; EADDRINUSE (or EACCES) names the service that wanted it. */
function checkFree(listener: Listener): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new GuardError(
          'CONFLICT',
          `${listener.name} cannot listen on ${listener.host}:${listener.port}: ${
            error.code === 'EADDRINUSE' ? 'the port is in use (is Guard already running?)' : error.message
          }`,
        ),
      ),
    )
    server.listen({ host: listener.host, port: listener.port, exclusive: true }, () => server.close(() => resolve()))
  })
}

/**
 * Everything a start needs before it creates or changes a file: its ports free and its data
 * directory lockable. A start that fails here leaves the data directory exactly as it was.
 */
export async function preflight(input: {
  listeners: Listener[]
  /** Unset when every store is a server (nothing of this process lives in the data directory). */
  dataDir: string | undefined
  command: string
}): Promise<DataDirLock | undefined> {
  // Port 0 is chosen by the system at listen, so it is always free.
  for (const listener of input.listeners) if (listener.port !== 0) await checkFree(listener)
  return input.dataDir === undefined ? undefined : lockDataDir(input.dataDir, input.command)
}

/** A refused start prints one line naming the cause and exits 1, with no stack trace. */
export function exitOnPreflightError(error: unknown): never {
  if (error instanceof DataDirLockedError || error instanceof GuardError) {
    process.stderr.write(`guard: ${error.message}\n`)
    process.exit(1)
  }
  throw error
}
