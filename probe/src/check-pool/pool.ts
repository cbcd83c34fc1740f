import { Worker } from 'node:worker_threads'
import type { Logger, MonitorTarget } from '@guard/shared'
import type { CheckOptions, CheckOutcome, TargetCheck } from '../checker.ts'
import { checkOnThisThread } from '../checkers/index.ts'
import { runsOnThread } from '../checkers/threaded.ts'
import { checkWorkerSource } from './bundle.ts'
import type { CheckReply, CheckRequest } from './messages.ts'

/** Threads that crash this many times in a row without answering anything make the pool give up on threads. */
const CRASHES_BEFORE_FALLBACK = 3

interface InFlight {
  started: number
  timeoutMs: number
  settle: (outcome: CheckOutcome) => void
  watchdog: NodeJS.Timeout
}

interface Thread {
  worker: Worker
  inFlight: Map<number, InFlight>
  /** Set when the pool ends it (close, or a hung thread), so its exit is not taken for a crash. */
  ending: boolean
  error: Error | undefined
}

export interface CheckPoolOptions {
  /** GUARD_PROBE_CHECK_THREADS: the most worker threads; 0 runs every check on the calling thread. */
  threads: number
  log?: Logger
  /** How long past its timeout a check may stay unanswered before its thread counts as hung. */
  graceMs?: number
  /** The threads' code: the checkers' bundle; tests give broken code to prove the fallbacks. */
  workerSource?: () => string
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10

/**
 * Spreads HTTPS and TLS checks over worker threads, so that TLS handshakes, which run
 * synchronously on the thread that opens the connection, use every core and not only the main
 * thread's. Each check still opens its own connection and measures its own phases in the
 * thread that runs it. Threads start on demand, a new one only when every running thread is
 * busy. A thread that dies is replaced and its checks in flight are reported down with the
 * reason, never dropped; one that does not answer within a check's timeout plus `graceMs` is
 * taken for hung and replaced the same way.
 */
export class CheckPool {
  private readonly threads: Thread[] = []
  private readonly size: number
  private readonly graceMs: number
  private nextId = 1
  private crashesInARow = 0
  private closed = false
  private readonly settled = new Set<Promise<CheckOutcome>>()

  constructor(private readonly options: CheckPoolOptions) {
    this.size = options.threads
    this.graceMs = options.graceMs ?? 5000
  }

  /** The pool as a TargetCheck for runCheck. */
  readonly check: TargetCheck = (target, options) => this.run(target, options)

  run(target: MonitorTarget, options: CheckOptions): Promise<CheckOutcome> {
    if (!this.usesThreads() || !runsOnThread(target)) return checkOnThisThread(target, options)
    let thread: Thread
    try {
      thread = this.pick()
    } catch (error) {
      // No thread can start (the bundle did not build): checks go on, on this thread.
      this.crashesInARow = CRASHES_BEFORE_FALLBACK
      this.options.log?.error({ err: error }, 'check threads cannot start; running checks on the main thread')
      return checkOnThisThread(target, options)
    }
    const id = this.nextId++
    const outcome = new Promise<CheckOutcome>((resolve) => {
      const entry: InFlight = {
        started: performance.now(),
        timeoutMs: options.timeoutMs,
        settle: (result) => {
          clearTimeout(entry.watchdog)
          thread.inFlight.delete(id)
          if (thread.inFlight.size === 0) thread.worker.unref()
          resolve(result)
        },
        watchdog: setTimeout(() => this.hung(thread, id), options.timeoutMs + this.graceMs),
      }
      thread.inFlight.set(id, entry)
      thread.worker.ref()
      thread.worker.postMessage({ id, target, ...options } satisfies CheckRequest)
    })
    this.settled.add(outcome)
    void outcome.finally(() => this.settled.delete(outcome))
    return outcome
  }

  /** Worker threads running now. */
  get running(): number {
    return this.threads.length
  }

  /** The running worker threads, for fault tests and diagnostics. */
  workers(): readonly Worker[] {
    return this.threads.map((thread) => thread.worker)
  }

  /** Waits for the checks in flight, then ends the threads. Later checks run on the calling thread. */
  async close(): Promise<void> {
    this.closed = true
    await Promise.allSettled([...this.settled])
    await Promise.all(
      this.threads.splice(0).map((thread) => {
        thread.ending = true
        return thread.worker.terminate()
      }),
    )
  }

  private usesThreads(): boolean {
    return this.size > 0 && !this.closed && this.crashesInARow < CRASHES_BEFORE_FALLBACK
  }

  /** The least busy thread, or a new one when all are busy and there is room. */
  private pick(): Thread {
    let best: Thread | undefined
    for (const thread of this.threads) if (!best || thread.inFlight.size < best.inFlight.size) best = thread
    if (best && (best.inFlight.size === 0 || this.threads.length >= this.size)) return best
    return this.spawn()
  }

  private spawn(): Thread {
    const worker = new Worker((this.options.workerSource ?? checkWorkerSource)(), { eval: true })
    const thread: Thread = { worker, inFlight: new Map(), ending: false, error: undefined }
    worker.unref()
    worker.on('message', (reply: CheckReply) => {
      this.crashesInARow = 0
      thread.inFlight.get(reply.id)?.settle(reply.outcome)
    })
    worker.on('error', (error) => {
      thread.error = error
    })
    worker.on('exit', (code) => this.exited(thread, code))
    this.threads.push(thread)
    return thread
  }

  private exited(thread: Thread, code: number): void {
    const index = this.threads.indexOf(thread)
    if (index >= 0) this.threads.splice(index, 1)
    if (thread.inFlight.size === 0 && thread.ending) return
    if (!thread.ending) {
      this.crashesInARow += 1
      this.options.log?.error(
        { err: thread.error, exitCode: code, inFlight: thread.inFlight.size },
        'a check thread stopped; its checks in flight are reported down',
      )
    }
    const reason = thread.ending
      ? 'the check thread was replaced because it stopped answering'
      : `the check thread stopped (${thread.error?.message ?? `exit code ${code}`})`
    for (const entry of [...thread.inFlight.values()]) {
      entry.settle({
        status: 'down',
        responseTimeMs: elapsed(entry.started),
        error: `${reason} before the check finished`,
        errorKind: 'unknown',
      })
    }
  }

  /** A check unanswered long after its timeout: the thread's loop is stuck, so it is replaced. */
  private hung(thread: Thread, id: number): void {
    const entry = thread.inFlight.get(id)
    if (!entry) return
    entry.settle({
      status: 'down',
      responseTimeMs: elapsed(entry.started),
      error: `timed out after ${entry.timeoutMs} ms`,
      errorKind: 'timeout',
    })
    if (thread.ending) return
    thread.ending = true
    this.options.log?.error({ threadId: thread.worker.threadId }, 'a check thread stopped answering; replacing it')
    const index = this.threads.indexOf(thread)
    if (index >= 0) this.threads.splice(index, 1)
    void thread.worker.terminate()
  }
}
