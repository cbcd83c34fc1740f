import { type CheckResult, decodeCheckResult, type Stoppable, type StreamMessage } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { createSummaryRefresher } from '../jobs/summary-refresher.ts'
import { publishStagedEvents } from '../services/events/publish.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { invalidateIngestedReads } from '../services/read-cache/invalidate.ts'
import { storeResults } from '../services/results/store.ts'
import { storeSyntheticRuns } from '../services/synthetics/store-runs.ts'
import { deadLetter, organizationNamed } from './dead-letter.ts'
import { isolateDataErrors } from './isolate.ts'
import { createIngestMetrics, type IngestMetrics } from './metrics.ts'

export const RESULTS_STREAM = 'RESULTS'
export const INGEST_DURABLE = 'collector-ingest'

export interface IngestStats {
  stored: number
  deadLettered: number
  batches: number
}

/** Longest pause between two attempts at a failing store; kept well under the ack wait. */
const MAX_RETRY_PAUSE_MS = 5000
/** How many fetched batches one group of stores may take while the stores are behind. */
const MAX_GROUPED_BATCHES = 5
/** How many fetched batches one ClickHouse insert may take while ClickHouse is behind. */
const MAX_INSERTED_BATCHES = 10
/** Groups between fetch and ack at once: one in PostgreSQL, the ones waiting for or in ClickHouse, one acking. */
const MAX_GROUPS_IN_FLIGHT = 4

/**
 * Stores probe results in ClickHouse, feeds them to the monitor state machine (which stages the
 * events it decides, published right after), and acks them only after both succeeded, so a crash
 * before the ack redelivers them (the store skips results it already holds, the state machine
 * ignores results it has seen). A message that breaks the wire contract, or that a store refuses
 * with a data error (see isolateDataErrors: the group is split until the refused results stand
 * alone, and the others are stored), goes to the dead-letter stream with the reason and is
 * terminated, so no message can block the stream.
 *
 * Batches overlap: one is fetched and decoded while the one before is in PostgreSQL and the one
 * before that in ClickHouse (see storeAndAck), and acks travel while the next batch is stored. When
 * the stores fall behind the bus, the batches fetched meanwhile go into them together as one group
 * (see startWaiting), and the groups through PostgreSQL meanwhile go into ClickHouse as one insert
 * (see insertWaiting), so each statement and insert serves more results. Each store still sees
 * results in order, and a message is acked only after both stored it. The batch's monitors
 * are then marked for the summary refresher, which recomputes their 24-hour and daily figures from
 * the rollups and invalidates cached reads.
 *
 * A store that fails otherwise (PostgreSQL or ClickHouse away) is retried in place with the same batch,
 * holding its messages with `working()`, until it succeeds or the consumer stops (then the batch
 * is nak'ed). Newer results never overtake a failed batch, so the state machine sees each
 * location's results in order and never drops a retried result as stale.
 */
export async function consumeResults(
  ctx: CollectorContext,
  stats: IngestStats,
  metrics: IngestMetrics = createIngestMetrics(),
): Promise<Stoppable> {
  const stopping = new AbortController()
  const refresher = createSummaryRefresher(ctx, ctx.env.GUARD_SUMMARY_REFRESH_MS, (seconds) =>
    metrics.phaseSeconds.inc({ phase: 'summary' }, seconds),
  )
  let acking: Promise<void> = Promise.resolve()
  let stateStage: Promise<void> = Promise.resolve()
  /** Settles once the last group started is queued for ClickHouse (rejects if one before it failed). */
  let queuedStage: Promise<void> = Promise.resolve()
  /** Groups of batches whose stores or acks are under way (at most MAX_GROUPS_IN_FLIGHT). */
  const inFlight = new Set<Promise<void>>()
  /** Groups not yet through the state stage: at most one, the one in it. */
  let beforeState = 0
  /** Wakes the fetch loop whenever a group leaves a stage. */
  let progressed = signal()
  const progress = () => {
    progressed.resolve()
    progressed = signal()
    startWaiting()
  }
  /** Decoded batches, in order, that wait for a stage to free up; they go into the stores as one group. */
  const waiting: Array<{ results: CheckResult[]; messages: StreamMessage[] }> = []
  /** The most results one group holds; fetching pauses while that many wait. */
  const maxGroup = ctx.env.GUARD_INGEST_MAX_BATCH * MAX_GROUPED_BATCHES
  /** The most results one ClickHouse insert takes. */
  const maxInsert = ctx.env.GUARD_INGEST_MAX_BATCH * MAX_INSERTED_BATCHES
  const waitingResults = () => waiting.reduce((sum, batch) => sum + batch.messages.length, 0)
  let halted = false
  const phase = (name: string, seconds: number) => metrics.phaseSeconds.inc({ phase: name }, seconds)
  const since = (started: number) => (performance.now() - started) / 1000
  const ackWaitMs = Math.max(ctx.env.GUARD_INGEST_ACK_WAIT_MS, ctx.env.GUARD_INGEST_MAX_WAIT_MS + 1000)
  const untilDone = <T>(store: 'timeseries' | 'relational', messages: StreamMessage[], work: () => Promise<T>) =>
    retryInPlace(work, {
      messages,
      signal: stopping.signal,
      maxPauseMs: Math.min(MAX_RETRY_PAUSE_MS, Math.floor(ackWaitMs / 3)),
      onFailure: (error, attempt) => {
        metrics.storeFailures.inc({ store })
        metrics.retrying.set({ store }, 1)
        const details = { err: error, store, results: messages.length, attempt }
        if (attempt === 1) ctx.log.error(details, 'storing a batch failed: retrying it in place, in order')
        else ctx.log.debug(details, 'storing a batch failed again')
      },
      onSuccess: (attempt) => {
        metrics.retrying.set({ store }, 0)
        if (attempt > 1) ctx.log.info({ store, attempts: attempt }, 'stored the batch after retrying')
      },
    })
  /** Groups through the state stage, in order, waiting for one ClickHouse insert to take them together. */
  const toInsert: PendingInsert[] = []
  let inserting = false
  /** Set once an insert gave up (the consumer stopped): no later group may be stored before it. */
  let insertFailed: { error: unknown } | undefined
  /**
   * One insert for every group that left the state stage while the previous insert ran (up to
   * maxInsert results): each insert costs ClickHouse a new part in the table and in each rollup view,
   * whatever its size, so a busy ingest writes fewer, larger ones. The groups keep their order, and
   * each learns which of its results were new.
   */
  const insertWaiting = async () => {
    if (inserting) return
    inserting = true
    try {
      while (toInsert.length > 0) {
        const groups = takeUpTo(toInsert, maxInsert, (group) => group.results.length)
        const results = groups.flatMap((group) => group.results)
        const unseen = new Set(groups.flatMap((group) => [...group.unseen]))
        try {
          // Once split, a part may follow one that went in: every id is then asked about.
          const { outcomes, rejected } = await untilDone(
            'timeseries',
            groups.flatMap((group) => group.messages),
            () =>
              isolateDataErrors(results, (part, split) =>
                storeResults(ctx.timeseries, part, phase, split ? new Set() : unseen),
              ),
          )
          const fresh = new Set(outcomes.flat())
          const refused = new Map(rejected.map(({ item, error }) => [item, error]))
          for (const group of groups) {
            group.done(
              group.results.filter((result) => fresh.has(result)),
              group.results.flatMap((result) => (refused.has(result) ? [{ result, error: refused.get(result) }] : [])),
            )
          }
        } catch (error) {
          // Stopped while retrying: these and every group behind them go back unstored, in order.
          insertFailed = { error }
          for (const group of [...groups, ...toInsert.splice(0)]) group.failed(error)
        }
      }
    } finally {
      inserting = false
    }
  }
  /**
   * Two stages, each taking groups in order: the state machine (PostgreSQL), then ClickHouse.
   * ClickHouse is written only after the state committed, so a result newer than anything committed
   * for its location cannot be in ClickHouse yet and is inserted without asking; only the others
   * (late, redelivered, or of a location without state) go through the dedupe query. While one
   * group is in ClickHouse, the next can be in PostgreSQL.
   */
  const storeAndAck = (results: CheckResult[], messages: StreamMessage[]) => {
    const previousState = stateStage
    const previousQueued = queuedStage
    const unseen = new Set<string>()
    /** Organizations with a monitor whose state this group changed (a failed attempt may add some: harmless). */
    const stateChanged = new Set<string>()
    const state = (async () => {
      await previousState
      return untilDone('relational', messages, async () => {
        const stateStarted = performance.now()
        unseen.clear()
        const { outcomes, rejected } = await isolateDataErrors(results, async (part) => {
          const events = await applyResultsToState(ctx.sql, part, { newer: unseen, stateChanged })
          // Multi-step results keep their steps as the check's last runs (idempotent, like the state).
          await storeSyntheticRuns(ctx.sql, part)
          return events
        })
        phase('state', since(stateStarted))
        return { events: outcomes.flat(), rejected }
      })
    })()
    // The next group may enter PostgreSQL as soon as this one left it, while this one is in ClickHouse.
    void state.then(
      () => {
        beforeState -= 1
        progress()
      },
      () => {
        beforeState -= 1
      },
    )
    const queued = (async () => {
      const { events, rejected } = await state
      await previousQueued
      // A JetStream redelivery may follow a crash of another version's ingest: always asked about.
      for (const [index, message] of messages.entries()) {
        if (message.deliveryCount > 1) unseen.delete(results[index]!.id)
      }
      const refused = new Set(rejected.map(({ item }) => item))
      await refuse(
        rejected.map(({ item, error }) => ({ result: item, error })),
        results,
        messages,
      )
      const kept = results.flatMap((result, index) =>
        refused.has(result) ? [] : [{ result, message: messages[index]! }],
      )
      return { events, kept }
    })()
    const stored = queued.then(
      ({ events, kept }) =>
        new Promise<{ events: string[]; fresh: CheckResult[]; kept: typeof kept }>((resolve, reject) => {
          if (insertFailed) return reject(insertFailed.error)
          const keptResults = kept.map((entry) => entry.result)
          const keptMessages = kept.map((entry) => entry.message)
          toInsert.push({
            results: keptResults,
            messages: keptMessages,
            unseen,
            done: (fresh, rejected) => {
              void refuse(rejected, keptResults, keptMessages).finally(() => {
                const refused = new Set(rejected.map((entry) => entry.result))
                resolve({ events, fresh, kept: kept.filter((entry) => !refused.has(entry.result)) })
              })
            },
            failed: reject,
          })
          void insertWaiting()
        }),
    )
    // A failed stage fails the next batch's too (it waits on it), so no batch overtakes a failed one.
    state.catch(() => {})
    stateStage = state.then(() => undefined)
    stateStage.catch(() => {})
    queuedStage = queued.then(() => undefined)
    queuedStage.catch(() => {})
    return stored.then(
      async ({ events, fresh, kept }) => {
        // States changed now (cached pages show them at once); 24-hour figures follow with the refresher.
        void invalidateIngestedReads({
          ctx,
          organizationIds: results.map((result) => result.organizationId),
          monitorIds: results.map((result) => result.monitorId),
          stateChanged,
        })
        refresher.touched(results)
        // The previous batch's acks had this batch's stores to finish in; this batch's get the next ones.
        await acking
        acking = acknowledge(
          kept.map((entry) => entry.result),
          kept.map((entry) => entry.message),
          events,
          fresh,
        )
      },
      async () => {
        // Stopped while retrying: the batch goes back now rather than after the ack wait, and no later
        // batch may be stored before it.
        halted = true
        await Promise.allSettled(messages.map((message) => message.nak()))
      },
    )
  }
  /**
   * Dead-letters the results a store refused on their own. One that cannot be dead-lettered now
   * (the bus away) is left unacked, so it comes back after the ack wait and is refused again.
   */
  const refuse = async (
    refused: Array<{ result: CheckResult; error: unknown }>,
    results: CheckResult[],
    messages: StreamMessage[],
  ) => {
    for (const { result, error } of refused) {
      const message = messages[results.indexOf(result)]!
      stats.deadLettered += 1
      await deadLetter(ctx, {
        source: 'results',
        consumer: INGEST_DURABLE,
        message,
        reason: 'data',
        error,
        organizationId: result.organizationId,
      }).catch((failure: unknown) =>
        ctx.log.error({ err: failure }, 'dead-lettering a refused result failed: it comes back after the ack wait'),
      )
    }
  }
  const acknowledge = async (
    results: CheckResult[],
    messages: StreamMessage[],
    events: string[],
    fresh: CheckResult[],
  ) => {
    await publishStagedEvents(ctx, { ids: events }).catch((error: unknown) =>
      ctx.log.warn({ err: error }, 'publishing events failed: the relay will retry'),
    )
    const ackStarted = performance.now()
    const acked = await Promise.allSettled(messages.map((message) => message.ack()))
    phase('ack', since(ackStarted))
    const failed = acked.filter((outcome) => outcome.status === 'rejected').length
    if (failed > 0) ctx.log.warn({ failed }, 'acks failed: those results come back after the ack wait, deduplicated')
    // Counted once acked: a batch that failed is not stored, whatever one of its stores did.
    metrics.duplicates.inc(results.length - fresh.length)
    metrics.stored.inc(fresh.length)
    const now = Date.now()
    if (results.length > 0) {
      let oldest = Number.POSITIVE_INFINITY
      for (const result of results) {
        const startedAt = Date.parse(result.startedAt)
        oldest = Math.min(oldest, startedAt)
        metrics.lag.observe((now - startedAt) / 1000)
      }
      metrics.lastLag.set((now - oldest) / 1000)
    }
    stats.stored += messages.length
    stats.batches += 1
  }
  /**
   * Starts what waits once the state stage is free (and the groups in flight leave room): all the
   * batches that arrived since, as one group (up to maxGroup results), in arrival order. The group is
   * formed when PostgreSQL can take it, not while the one before is still in it, so a store slower
   * than the bus gets every batch that arrived meanwhile and its cost per statement (each one a round
   * trip that waits for the event loop) is shared by more results. A group leaves the state stage's
   * count once PostgreSQL is done with it, not once it is acked, so PostgreSQL takes the next group
   * while ClickHouse and the acks still work on the ones before.
   */
  const startWaiting = () => {
    if (halted || stopping.signal.aborted) {
      for (const batch of waiting.splice(0)) void Promise.allSettled(batch.messages.map((message) => message.nak()))
      return
    }
    while (beforeState < 1 && inFlight.size < MAX_GROUPS_IN_FLIGHT && waiting.length > 0) {
      const group = takeUpTo(waiting, maxGroup, (batch) => batch.messages.length)
      beforeState += 1
      const stored: Promise<void> = storeAndAck(
        group.flatMap((batch) => batch.results),
        group.flatMap((batch) => batch.messages),
      )
        .catch((error: unknown) =>
          ctx.log.error(
            { err: error },
            'storing a group of results failed unexpectedly: what it did not ack comes back after the ack wait',
          ),
        )
        .finally(() => {
          inFlight.delete(stored)
          progress()
        })
      inFlight.add(stored)
    }
  }
  const consumer = await ctx.bus.consume(
    {
      stream: RESULTS_STREAM,
      durable: INGEST_DURABLE,
      filterSubject: 'results.>',
      maxBatch: ctx.env.GUARD_INGEST_MAX_BATCH,
      maxWaitMs: ctx.env.GUARD_INGEST_MAX_WAIT_MS,
      ackWaitMs,
    },
    async (batch) => {
      metrics.batchSize.observe(batch.length)
      const started = performance.now()
      const valid: Array<{ message: StreamMessage; result: CheckResult }> = []
      for (const message of batch) {
        try {
          valid.push({ message, result: decodeCheckResult(message.data) })
        } catch (error) {
          stats.deadLettered += 1
          await deadLetter(ctx, {
            source: 'results',
            consumer: INGEST_DURABLE,
            message,
            reason: 'contract',
            error,
            organizationId: organizationNamed(message.data),
          })
        }
      }
      const results = valid.map((entry) => entry.result)
      phase('decode', since(started))
      const messages = valid.map((entry) => entry.message)
      if (halted || stopping.signal.aborted) {
        await Promise.allSettled(messages.map((message) => message.nak()))
        return
      }
      waiting.push({ results, messages })
      startWaiting()
      while (waitingResults() >= maxGroup) await progressed.promise
    },
  )
  return {
    async stop() {
      stopping.abort()
      await consumer.stop()
      while (inFlight.size > 0) await Promise.all(inFlight)
      await acking
      await refresher.settled()
      await refresher.stop()
    },
  }
}

interface RetryOptions {
  messages: StreamMessage[]
  signal: AbortSignal
  maxPauseMs: number
  onFailure(error: unknown, attempt: number): void
  onSuccess(attempts: number): void
}

/** Runs `work` until it succeeds, keeping `messages` in hand meanwhile; rethrows once `signal` aborts. */
async function retryInPlace<T>(work: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await work()
      options.onSuccess(attempt)
      return value
    } catch (error) {
      options.onFailure(error, attempt)
      if (options.signal.aborted) throw error
      await pause(Math.min(100 * 2 ** attempt, options.maxPauseMs), options.signal)
      if (options.signal.aborted) throw error
      await Promise.all(options.messages.map((message) => message.working().catch(() => {})))
    }
  }
}

/** Removes the first entries of `queue` whose sizes add up to at most `max` (at least one) and returns them. */
function takeUpTo<T>(queue: T[], max: number, size: (entry: T) => number): T[] {
  let count = 0
  let taken = 0
  while (taken < queue.length && (taken === 0 || count + size(queue[taken]!) <= max)) {
    count += size(queue[taken]!)
    taken += 1
  }
  return queue.splice(0, taken)
}

interface PendingInsert {
  results: CheckResult[]
  messages: StreamMessage[]
  /** Ids known not to be stored yet (see storeAndAck). */
  unseen: ReadonlySet<string>
  done(fresh: CheckResult[], refused: Array<{ result: CheckResult; error: unknown }>): void
  failed(error: unknown): void
}

function signal(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}
