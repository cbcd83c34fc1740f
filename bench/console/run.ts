import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { CONSOLE_DIST } from '../../collector/src/console/static.ts'
import { launchChromium, signInToConsole, startGuardForConsole } from '../../test/support/console-browser.ts'
import { startFixtureServer } from '../../test/support/fixture-server.ts'

/**
 * bench/console: the web console's weight and speed as a person's browser sees it, against
 * `guard start` with BENCH_DOMAINS (20) domains on a local fixture. Headless Chromium (Debian's)
 * loads the overview BENCH_LOADS (7) times cold (a fresh browser context: empty cache, only the
 * session cookie) over loopback and reads, with the performance API, when the overview showed its
 * data (the console's `guard:overview-ready` mark) and which scripts it fetched. The ceiling,
 * measured in the same run, is a cold navigation to a bare page of the same server (/api/health).
 * Goal: under 150 kB gzip of JavaScript for the first screen, usable under 1 s.
 */
const domains = Number(process.env.BENCH_DOMAINS ?? 20)
const loads = Number(process.env.BENCH_LOADS ?? 7)
const round = (value: number) => Math.round(value * 10) / 10
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]!

async function gzipOf(path: string): Promise<{ raw: number; gzip: number }> {
  const body = await readFile(join(CONSOLE_DIST, path))
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length }
}

async function main() {
  const fixture = await startFixtureServer()
  const guard = await startGuardForConsole({ GUARD_RATE_LIMIT_READ: '1000000', GUARD_RATE_LIMIT_PUBLIC: '1000000' })
  const browser = await launchChromium()
  try {
    for (let index = 0; index < domains; index++) {
      const response = await fetch(`${guard.collectorUrl}/api/domains`, {
        method: 'POST',
        headers: { authorization: `Bearer ${guard.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${fixture.url}?d=${index}`, name: `Bench ${index}`, checkInterval: 60 }),
      })
      if (!response.ok) throw new Error(`seeding a domain: ${response.status} ${await response.text()}`)
    }
    const signedIn = await signInToConsole(browser, guard)
    const cookies = await signedIn.context.cookies()
    await signedIn.context.close()

    const ready: number[] = []
    const domContentLoaded: number[] = []
    const bare: number[] = []
    let scripts: string[] = []
    for (let run = 0; run < loads; run++) {
      const context = await browser.newContext()
      await context.addCookies(cookies)
      const page = await context.newPage()
      await page.goto(`${guard.collectorUrl}/`)
      await page.waitForFunction(() => performance.getEntriesByName('guard:overview-ready').length > 0, null, {
        timeout: 30_000,
      })
      const timing = await page.evaluate(() => ({
        ready: performance.getEntriesByName('guard:overview-ready')[0]!.startTime,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => new URL(entry.name).pathname),
        requests: performance
          .getEntriesByType('resource')
          .map(
            (entry) => `${new URL(entry.name).pathname} ${Math.round(entry.startTime)}+${Math.round(entry.duration)}`,
          ),
      }))
      if (process.env.BENCH_VERBOSE) console.error(timing.requests.join('\n'))
      ready.push(timing.ready)
      domContentLoaded.push(
        await page.evaluate<number>("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"),
      )
      scripts = timing.scripts
      await context.close()

      const ceiling = await browser.newContext()
      const plain = await ceiling.newPage()
      await plain.goto(`${guard.collectorUrl}/api/health`)
      bare.push(await plain.evaluate<number>("performance.getEntriesByType('navigation')[0].loadEventEnd"))
      await ceiling.close()
    }

    const firstScreen = await Promise.all(
      [...new Set(['/index.html', ...scripts])].map(async (path) => ({
        path,
        ...(await gzipOf(path === '/index.html' ? 'index.html' : path.slice(1))),
      })),
    )
    const js = firstScreen.filter((file) => file.path.endsWith('.js'))
    const { readdir } = await import('node:fs/promises')
    const allJs = (await readdir(join(CONSOLE_DIST, 'assets'))).filter((name) => name.endsWith('.js'))
    const whole = await Promise.all(allJs.map((name) => gzipOf(`assets/${name}`)))
    const readyMedian = median(ready)
    const bareMedian = median(bare)
    console.log(
      JSON.stringify(
        {
          bench: 'console',
          domains,
          loads,
          firstScreen: {
            scripts: js.length,
            jsGzipKb: round(js.reduce((sum, file) => sum + file.gzip, 0) / 1024),
            jsRawKb: round(js.reduce((sum, file) => sum + file.raw, 0) / 1024),
            goalJsGzipKb: 150,
          },
          wholeConsole: {
            scripts: allJs.length,
            jsGzipKb: round(whole.reduce((sum, file) => sum + file.gzip, 0) / 1024),
          },
          coldLoadMs: {
            overviewUsableMedian: round(readyMedian),
            overviewUsableP90: round(p90(ready)),
            domContentLoadedMedian: round(median(domContentLoaded)),
            goal: 1000,
          },
          ceiling: { bareNavigationMedianMs: round(bareMedian) },
          ratioToCeiling: round(readyMedian / Math.max(bareMedian, 1)),
        },
        null,
        2,
      ),
    )
  } finally {
    await browser.close()
    await guard.stop()
    await fixture.close()
  }
}

await main()
