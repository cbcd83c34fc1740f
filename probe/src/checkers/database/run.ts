import type { AllowedTarget } from '@guard/shared/net'
import type { CheckContext, CheckOutcome } from '../../checker.ts'
import { elapsedSince, failed, roundMs, untilAborted } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'
import { assertionProblem, type QueryAnswer, type QueryAssertions } from './answer.ts'
import { type DatabaseTls, databaseTls } from './tls.ts'

/** What every database target carries besides its engine's own options. */
export interface DatabaseTarget extends QueryAssertions {
  host: string
  port?: number | undefined
  tls?: boolean | undefined
  ignoreTlsErrors?: boolean | undefined
  secrets?: { password?: string | undefined } | undefined
}

/** A signed-in connection. */
export interface DatabaseSession {
  /** Runs the target's read-only query (or the engine's probe) and reduces the answer. */
  query(): Promise<QueryAnswer>
  /** Closes without waiting; never throws. */
  close(): void
  /** The certificate, for drivers that show their TLS socket rather than `checkServerIdentity`. */
  certificate?(): CheckOutcome['certificate']
}

/** One engine: how to sign in, and which of its errors mean refused credentials or a failed query. */
export interface DatabaseDriver<Target extends DatabaseTarget> {
  defaultPort: number
  connect(
    target: Target,
    at: { vetted: AllowedTarget; port: number; tls?: DatabaseTls },
    context: CheckContext,
  ): Promise<DatabaseSession>
  isAuthFailure(error: unknown): boolean
  /** An error the server answered the query with (syntax, permission, read-only violation). */
  isQueryFailure(error: unknown): boolean
}

/** The password never appears in an outcome, whatever a driver puts in its messages. */
const withoutSecret = (outcome: CheckOutcome, password: string | undefined): CheckOutcome =>
  password && outcome.error?.includes(password)
    ? { ...outcome, error: outcome.error.replaceAll(password, '***') }
    : outcome

/** A session that comes too late for an aborted check is closed when it comes. */
async function connectWithin(connecting: Promise<DatabaseSession>, signal: AbortSignal): Promise<DatabaseSession> {
  try {
    return await untilAborted(connecting, signal)
  } catch (error) {
    connecting.then((session) => session.close()).catch(() => undefined)
    throw error
  }
}

/**
 * Vet, connect and sign in (`connectMs`), query (`queryMs`), assert. Refused credentials are
 * `auth_failed`, an error the server answered the query with `query_failed`, a wrong count or
 * value `assertion_failed`; the rest is classified like any connection failure.
 */
export async function runDatabaseCheck<Target extends DatabaseTarget>(
  target: Target,
  context: CheckContext,
  driver: DatabaseDriver<Target>,
): Promise<CheckOutcome> {
  const started = performance.now()
  const password = target.secrets?.password
  let session: DatabaseSession | undefined
  let tls: DatabaseTls | undefined
  let stage: 'connect' | 'query' = 'connect'
  const certificate = () => {
    const seen = tls?.certificate() ?? session?.certificate?.()
    return seen ? { certificate: seen } : {}
  }
  try {
    const vetted = await vetTarget(target.host, context)
    tls = target.tls ? databaseTls(vetted.hostname, target.ignoreTlsErrors) : undefined
    const port = target.port ?? driver.defaultPort
    const connecting = performance.now()
    session = await connectWithin(
      driver.connect(target, { vetted, port, ...(tls ? { tls } : {}) }, context),
      context.signal,
    )
    const querying = performance.now()
    stage = 'query'
    const answer = await untilAborted(session.query(), context.signal)
    const phases = {
      dnsMs: roundMs(vetted.lookupMs),
      connectMs: roundMs(querying - connecting),
      queryMs: elapsedSince(querying),
    }
    const problem = assertionProblem(answer, target)
    const verdict = problem
      ? ({ status: 'down', error: problem, errorKind: 'assertion_failed' } as const)
      : ({ status: 'up' } as const)
    return withoutSecret(
      { ...verdict, responseTimeMs: elapsedSince(started), phases, address: vetted.address, ...certificate() },
      password,
    )
  } catch (error) {
    const extra = certificate()
    const outcome = context.signal.aborted
      ? failed(error, context, started, extra)
      : driver.isAuthFailure(error)
        ? failed(error, context, started, { ...extra, errorKind: 'auth_failed' })
        : stage === 'query' && driver.isQueryFailure(error)
          ? failed(error, context, started, { ...extra, errorKind: 'query_failed' })
          : failed(error, context, started, extra)
    return withoutSecret(outcome, password)
  } finally {
    session?.close()
  }
}
