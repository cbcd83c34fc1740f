import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'

const CHILD = fileURLToPath(new URL('../testing/bus-crash-child.ts', import.meta.url))
/** The longest the final run may take to deliver what the killed runs left; past it, what is missing is lost. */
const FINAL_RUN_MS = 60_000
const TIMEOUT_MS = 120_000 + FINAL_RUN_MS

interface Run {
  acked: number[]
  delivered: Array<{ n: number; count: number }>
}

/**
 * Runs the child and SIGKILLs it `killAfterMs` after it is ready, or, without one, once it has
 * caught up: every number in `owed` delivered and then 1.5 s without a delivery, or at the latest
 * after FINAL_RUN_MS.
 */
function runChild(
  dir: string,
  from: number,
  count: number,
  killAfterMs: number | undefined,
  owed: ReadonlySet<number> = new Set(),
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, CRASH_DIR: dir, CRASH_FROM: String(from), CRASH_COUNT: String(count) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run: Run = { acked: [], delivered: [] }
    const missing = new Set(owed)
    let buffered = ''
    let stderr = ''
    let timer: NodeJS.Timeout | undefined
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) {
        const [word, n, deliveries] = line.split(' ')
        if (word === 'acked') run.acked.push(Number(n))
        if (word === 'delivered') {
          run.delivered.push({ n: Number(n), count: Number(deliveries) })
          missing.delete(Number(n))
        }
        if (word === 'ready' && killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
        if (word === 'ready' && killAfterMs === undefined) {
          // The final run: let it catch up with everything stored, then stop it. Idleness alone is not
          // enough on a loaded machine, where the child can sit 1.5 s without a turn on a core.
          const startedAt = Date.now()
          let delivered = -1
          const settle = setInterval(() => {
            if ((missing.size === 0 && run.delivered.length === delivered) || Date.now() - startedAt > FINAL_RUN_MS) {
              clearInterval(settle)
              child.kill('SIGKILL')
            }
            delivered = run.delivered.length
          }, 1500)
        }
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (signal === 'SIGKILL' || code === 0) resolve(run)
      else reject(new Error(`child exited with ${code}: ${stderr}`))
    })
  })
}

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

it(
  'SIGKILL at random moments loses no acknowledged publish and delivers nothing as new twice',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guard-bus-crash-'))
    dirs.push(dir)
    const runs: Run[] = []
    const perRun = 200_000
    for (let attempt = 0; attempt < 5; attempt++) {
      // A random moment while publishes, deliveries and acks are all in full swing.
      runs.push(await runChild(dir, attempt * perRun, perRun, 150 + Math.floor(Math.random() * 600)))
    }
    // Acked by the killed runs and not delivered by them: the final run owes these.
    const seenBefore = new Set(runs.flatMap((run) => run.delivered.map((delivery) => delivery.n)))
    const owed = new Set(runs.flatMap((run) => run.acked).filter((n) => !seenBefore.has(n)))
    runs.push(await runChild(dir, 5 * perRun, 0, undefined, owed))

    const acked = runs.flatMap((run) => run.acked)
    const delivered = runs.flatMap((run) => run.delivered)
    const seen = new Set(delivered.map((delivery) => delivery.n))
    const lost = acked.filter((n) => !seen.has(n))
    const firstDeliveries = new Map<number, number>()
    for (const { n, count } of delivered) if (count === 1) firstDeliveries.set(n, (firstDeliveries.get(n) ?? 0) + 1)
    const newTwice = [...firstDeliveries].filter(([, times]) => times > 1)

    expect(acked.length).toBeGreaterThan(100)
    expect(lost).toEqual([])
    expect(newTwice).toEqual([])
    console.info(
      JSON.stringify({ crashTest: { kills: 5, acked: acked.length, delivered: delivered.length, lost: lost.length } }),
    )
  },
  TIMEOUT_MS,
)
