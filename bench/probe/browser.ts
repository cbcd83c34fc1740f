import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { BrowserChecks } from '../../probe/src/browser/browser-checks.ts'
import { startShopApp } from '../../probe/src/testing/shop-app.ts'

/**
 * bench/probe/browser.ts: browser checks at saturation. The fixture shop's journey (log in with a
 * secret, check the total: two steps, two navigations) runs back to back through the probe's
 * browser slots at each concurrency in BENCH_BROWSER_CONCURRENCY (default 1 and one per core),
 * BENCH_BROWSER_RUNS runs each (default 4 per slot). Prints JSON: checks per minute, per minute
 * per core, run duration p50/max, and the memory of this process and everything it started
 * (script processes, browsers), sampled every second: the reasons of failed runs, and the peak sum of PSS (shared pages counted
 * once) and of RSS (shared pages counted in every process). Run: npx tsx bench/probe/browser.ts
 */
const cores = availableParallelism()
const concurrencies = (process.env.BENCH_BROWSER_CONCURRENCY ?? `1,${cores}`).split(',').map(Number)
const runsPerSlot = Number(process.env.BENCH_BROWSER_RUNS ?? 4)
const browserPath = process.env.GUARD_PROBE_BROWSER_PATH ?? '/usr/bin/chromium'
const PASSWORD = 'bench-password'

/** Parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      map.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // Ended while listed.
    }
  }
  return map
}

/** PSS and RSS in MB summed over this process and its descendants. */
function treeMemory(): { pssMb: number; rssMb: number } {
  const byParent = parents()
  const tree = new Set([process.pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, parent] of byParent) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid)
        grew = true
      }
    }
  }
  let pssKb = 0
  let rssKb = 0
  for (const pid of tree) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      pssKb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0)
      rssKb += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0)
    } catch {
      // Ended while sampled.
    }
  }
  return { pssMb: Math.round(pssKb / 1024), rssMb: Math.round(rssKb / 1024) }
}

const shop = await startShopApp(PASSWORD)
const artifactsDir = await mkdtemp(join(tmpdir(), 'guard-bench-browser-'))
const script = `test('checkout', async ({ page }) => {
  await test.step('log in', async () => {
    await page.goto('${shop.url}/login')
    await page.getByLabel('User').fill('ada')
    await page.getByLabel('Password').fill(secrets.PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
  })
  await test.step('check total', async () => {
    await expect(page.locator('#total')).toHaveText('42.00 EUR')
  })
})`

const idle = treeMemory()
const results = []
for (const concurrency of concurrencies) {
  const checks = new BrowserChecks({ browserPath, artifactsDir, allowPrivate: true, concurrency, tenants: () => 1 })
  let peak = { pssMb: 0, rssMb: 0 }
  const sampler = setInterval(() => {
    const now = treeMemory()
    peak = { pssMb: Math.max(peak.pssMb, now.pssMb), rssMb: Math.max(peak.rssMb, now.rssMb) }
  }, 1000)
  const runs = concurrency * runsPerSlot
  const started = performance.now()
  const done = await Promise.all(
    Array.from({ length: runs }, () =>
      checks.run('org', { script, secrets: { PASSWORD }, timeoutMs: 120_000, expectTimeoutMs: 5000 }),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  const durations = done.map((run) => run.durationMs).sort((a, b) => a - b)
  results.push({
    concurrency,
    runs,
    passed: done.filter((run) => run.status === 'passed').length,
    seconds: Math.round(seconds * 10) / 10,
    checksPerMinute: Math.round((runs / seconds) * 60 * 10) / 10,
    checksPerMinutePerCore: Math.round(((runs / seconds) * 60 * 10) / cores) / 10,
    runMsP50: durations[Math.floor(durations.length / 2)],
    runMsMax: durations.at(-1),
    peakTreePssMb: peak.pssMb,
    peakTreeRssMb: peak.rssMb,
    failures: [
      ...new Set(
        done.filter((run) => run.status === 'failed').map((run) => `${run.failedStep}: ${run.error?.split('\n')[0]}`),
      ),
    ],
  })
}
await shop.close()
await rm(artifactsDir, { recursive: true, force: true })
console.log(JSON.stringify({ cores, loadAverage1m: loadavg()[0], idleTree: idle, results }, null, 2))
