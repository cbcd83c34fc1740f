import { mkdtemp, rm } from 'node:fs/promises'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startNatsServer, startPostgres } from '@guard/shared/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const nats = await startNatsServer()
const postgres = await startPostgres()
const CLOSE_BOUND_MS = 20_000

/** One GET on a fresh connection (no keep-alive to race the close): its status, or the socket error code. */
function getOnce(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
  })
}

/**
 * Requests `url` from several clients at once until stopped. Every request must get a
 * complete answer (a 503 from a server already closing counts: it tells a load balancer to go
 * elsewhere) or be refused because the server stopped listening; never a 500 or a broken answer.
 */
function load(url: string) {
  const outcomes = { answered: 0, closing: 0, refused: 0, failed: [] as string[] }
  let running = true
  const client = async () => {
    while (running) {
      const outcome = await getOnce(url)
      // Refused once the listener is gone; reset when still in the kernel's accept queue as it
      // closed (never read by the server, so never half-handled).
      if (outcome === 'ECONNREFUSED' || outcome === 'ECONNRESET') {
        outcomes.refused += 1
        return
      }
      if (outcome === 503) outcomes.closing += 1
      else if (typeof outcome === 'number' && outcome < 500) outcomes.answered += 1
      else outcomes.failed.push(String(outcome))
    }
  }
  const clients = Array.from({ length: 8 }, client)
  return {
    outcomes,
    stop: async () => {
      running = false
      await Promise.all(clients)
    },
  }
}

describe.skipIf(!nats || !postgres)('graceful shutdown of each process', () => {
  const dirs: string[] = []
  const processes: GuardProcess[] = []
  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop('SIGKILL')))
    await nats?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `guard-shutdown-${name}-`))
    dirs.push(dir)
    return dir
  }

  /** Starts `args`, loads `path` for a second, sends SIGTERM under load: exit 0 within the bound, no request cut off. */
  async function closesCleanly(args: string[], env: Record<string, string>, ready: RegExp, url: string) {
    const child = spawnGuard(args, env)
    processes.push(child)
    await child.waitFor(ready, 120_000)
    const traffic = load(url)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const signalled = Date.now()
    const code = await child.stop('SIGTERM', CLOSE_BOUND_MS + 5000)
    const closedInMs = Date.now() - signalled
    await traffic.stop()
    expect(code).toBe(0)
    expect(closedInMs).toBeLessThan(CLOSE_BOUND_MS)
    expect(traffic.outcomes.failed).toEqual([])
    expect(traffic.outcomes.answered).toBeGreaterThan(0)
    return closedInMs
  }

  it('identity, collector and probe exit 0 on SIGTERM under load, within the bound', async () => {
    const identityPort = await freePort()
    const collectorPort = await freePort()
    const probeMetricsPort = await freePort()
    const identityMs = await closesCleanly(
      ['identity'],
      {
        DATABASE_URL: postgres!.url,
        GUARD_DATA_DIR: await tempDir('identity'),
        GUARD_IDENTITY_PORT: String(identityPort),
      },
      /identity: http/,
      `http://127.0.0.1:${identityPort}/api/v1/plans`,
    )
    const collectorMs = await closesCleanly(
      ['collector'],
      {
        NATS_URL: nats!.url,
        DATABASE_URL: postgres!.url,
        GUARD_DATA_DIR: await tempDir('collector'),
        GUARD_COLLECTOR_PORT: String(collectorPort),
      },
      /collector: http/,
      `http://127.0.0.1:${collectorPort}/api/health`,
    )
    const probeMs = await closesCleanly(
      ['probe', '--location', 'fra'],
      {
        NATS_URL: nats!.url,
        GUARD_DATA_DIR: await tempDir('probe'),
        GUARD_PROBE_METRICS_PORT: String(probeMetricsPort),
      },
      /probe: fra/,
      `http://127.0.0.1:${probeMetricsPort}/healthz`,
    )
    console.info(JSON.stringify({ shutdownMs: { identity: identityMs, collector: collectorMs, probe: probeMs } }))
  }, 240_000)
})
