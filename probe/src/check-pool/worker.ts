import { parentPort } from 'node:worker_threads'
import type { CheckOutcome } from '../checker.ts'
import { checkOnCheckThread } from '../checkers/threaded.ts'
import type { CheckReply, CheckRequest } from './messages.ts'

/**
 * A check thread: runs every check it is sent concurrently, each on its own fresh connection
 * under its own timeout, and answers with the outcome. Checkers never throw; should one do so
 * anyway, the check is reported down rather than left unanswered.
 */
const port = parentPort
if (!port) throw new Error('the check worker runs on a worker thread')

port.on('message', (request: CheckRequest) => {
  const started = performance.now()
  checkOnCheckThread(request.target, request)
    .catch(
      (error: unknown): CheckOutcome => ({
        status: 'down',
        responseTimeMs: Math.round((performance.now() - started) * 10) / 10,
        error: `check failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        errorKind: 'unknown',
      }),
    )
    .then((outcome) => port.postMessage({ id: request.id, outcome } satisfies CheckReply))
})
