import type { Logger } from '../logger.ts'

/**
 * Closes everything once on SIGINT or SIGTERM, in the order given (servers before stores),
 * then exits. A second signal while closing exits at once.
 */
export function closeOnSignals(log: Logger, close: () => Promise<void>): void {
  let closing = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, 'second signal while closing: exiting now')
      process.exit(1)
    }
    closing = true
    log.info({ signal }, 'closing')
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
