import type { Logger } from '../logger.ts'

/** How long a graceful close may take before the process exits anyway (Kubernetes waits 30 s). */
export const CLOSE_TIMEOUT_MS = 20_000

/**
 * Closes everything once on SIGINT or SIGTERM, in the order given (servers before stores),
 * then exits: 0 when all closed, 1 when something failed or the close outlasted `timeoutMs`.
 * A second signal while closing exits at once. What a close leaves undone is safe by design:
 * unacked messages come back, outboxes stay on disk.
 */
export function closeOnSignals(log: Logger, close: () => Promise<void>, timeoutMs = CLOSE_TIMEOUT_MS): void {
  let closing = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, 'second signal while closing: exiting now')
      process.exit(1)
    }
    closing = true
    log.info({ signal }, 'closing')
    setTimeout(() => {
      log.error({ timeoutMs }, 'close took too long: exiting now')
      process.exit(1)
    }, timeoutMs).unref()
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'close failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

/** Runs closers in order and keeps going when one fails, so one stuck part does not leak the rest. */
export async function closeAll(log: Logger, closers: Array<[string, () => Promise<void>]>): Promise<void> {
  for (const [name, closeOne] of closers) {
    try {
      await closeOne()
    } catch (error) {
      log.error({ err: error, part: name }, 'failed to close')
    }
  }
}
