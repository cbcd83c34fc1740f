import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { expect, it } from 'vitest'
import { postgresBinary } from './postgres.ts'

const MODULE = fileURLToPath(new URL('./postgres.ts', import.meta.url))
const installed = postgresBinary() !== undefined

/** Prints the server's URL and its data directory, then idles until killed. */
const CHILD = `
const { startPostgres } = await import(${JSON.stringify(MODULE)})
const server = await startPostgres()
const { rows } = await new (await import('pg')).default.Pool({ connectionString: server.url }).query('SHOW data_directory')
process.stdout.write(JSON.stringify({ url: server.url, dataDir: rows[0].data_directory }) + '\\n')
setInterval(() => {}, 1000)
`

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

it.skipIf(!installed)(
  'a server whose test process is killed outright stops, and its directory is removed',
  async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const started = await new Promise<{ url: string; dataDir: string }>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))))
      })
      child.once('exit', (code) => reject(new Error(`child exited with ${code} before its server was up`)))
    })
    expect(await reachable(started.url)).toBe(true)
    child.kill('SIGKILL')

    // The watchdog polls once a second and waits up to ten for the server to go.
    for (let wait = 0; wait < 60 && ((await reachable(started.url)) || existsSync(started.dataDir)); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(await reachable(started.url)).toBe(false)
    expect(existsSync(started.dataDir)).toBe(false)
  },
  30_000,
)
