import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type RunningCollector, startCollector } from '@guard/collector'
import {
  type Bus,
  createInProcessBus,
  createLogger,
  guardStreams,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { freePort, openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentNodeFlags } from '../agent/src/node-flags.ts'
import { parseCollectorEnv } from '../collector/src/env.ts'
import { eventually } from './support/collector-client.ts'

const run = promisify(execFile)
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex')

/**
 * The agent as a host gets it: the file GET /agent/download serves, alone in a directory without
 * node_modules, enrolling and reporting to a real collector; and the install script it serves.
 */
describe('the agent shipped as one file', () => {
  let dir: string
  let sql: RelationalStore
  let timeseries: TimeSeriesStore
  let bus: Bus
  let collector: RunningCollector
  let apiKey: string
  let url: string
  let agent: ChildProcess | undefined
  let tampered: Server | undefined
  // No NODE_PATH or NODE_OPTIONS of the test runner: the file must find everything in itself.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', LOG_LEVEL: 'info' }
  const agentFile = () => join(dir, 'clean', 'guard-agent.mjs')

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-agent-ship-'))
    sql = await openTestRelationalStore()
    timeseries = await openTestTimeSeriesStore()
    bus = createInProcessBus({ streams: guardStreams })
    const port = await freePort()
    collector = await startCollector({
      env: parseCollectorEnv({ GUARD_COLLECTOR_HOST: '127.0.0.1', GUARD_COLLECTOR_PORT: String(port) }),
      log: createLogger({ name: 'agent-ship', level: 'silent', pretty: false }),
      sql,
      timeseries,
      bus,
    })
    apiKey = collector.bootstrapApiKey!
    url = `http://127.0.0.1:${port}`
  })
  afterAll(async () => {
    agent?.kill('SIGKILL')
    await new Promise((resolve) => (tampered ? tampered.close(resolve) : resolve(undefined)))
    await collector?.close()
    await bus?.close()
    await timeseries?.close()
    await sql?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves the agent with its SHA-256 as a header and as a sha256sum line', async () => {
    const response = await fetch(`${url}/agent/download`)
    expect(response.status).toBe(200)
    const body = Buffer.from(await response.arrayBuffer())
    const checksum = sha256(body)
    expect(response.headers.get('x-checksum-sha256')).toBe(checksum)
    expect(await (await fetch(`${url}/agent/download.sha256`)).text()).toBe(`${checksum}  guard-agent.mjs\n`)
    // Public routes count against the per-IP budget.
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull()
    await run('mkdir', [join(dir, 'clean')])
    await writeFile(agentFile(), body)
  }, 60_000)

  it('enrols and reports from a directory with nothing but the file', async () => {
    const config = join(dir, 'clean', 'agent.json')
    const enrolled = await run(
      process.execPath,
      [agentFile(), 'enroll', '--collector', url, '--key', apiKey, '--name', 'shipped', '--config', config],
      { cwd: join(dir, 'clean'), env },
    )
    const deviceId = enrolled.stdout.match(/Enrolled device (\S+);/)?.[1]
    expect(deviceId).toBeDefined()
    agent = spawn(
      process.execPath,
      ['--lite-mode', '--expose-gc', agentFile(), '--config', config, '--interval', '1'],
      {
        cwd: join(dir, 'clean'),
        env: { ...env, GUARD_AGENT_SPOOL_DIR: join(dir, 'clean', 'spool') },
        stdio: 'ignore',
      },
    )
    await eventually(async () => {
      const result = await timeseries.client.query({
        query: `SELECT count() AS n FROM device_metrics WHERE device_id = {id:String} AND type = 'cpu'`,
        query_params: { id: deviceId },
        format: 'JSONEachRow',
      })
      const [row] = await result.json<{ n: string }>()
      return Number(row?.n) > 0 ? true : undefined
    }, "the shipped agent's heartbeat stored")
    agent.kill('SIGTERM')
  }, 60_000)

  it('installs with the script the collector serves, under a fake root', async () => {
    const script = join(dir, 'install.sh')
    const text = await (await fetch(`${url}/agent/install.sh`)).text()
    expect(text).toContain(`COLLECTOR_URL='${url}'`)
    expect(text).toContain(`AGENT_SHA256='${sha256(await readFile(agentFile()))}'`)
    await writeFile(script, text)
    await run('sh', ['-n', script])
    const root = join(dir, 'root')
    // A tag whose value holds a space: the script must pass it through as one argument.
    const installed = await run(
      'sh',
      [script, '--root', root, '--key', apiKey, '--name', 'scripted', '--tag', 'team:a b'],
      { env },
    )
    expect(installed.stderr).toContain('Enrolled device')
    const agentPath = join(root, 'usr/local/lib/guard-agent/guard-agent.mjs')
    expect(sha256(await readFile(agentPath))).toBe(sha256(await readFile(agentFile())))
    const unit = await readFile(join(root, 'etc/systemd/system/guard-agent.service'), 'utf8')
    expect(unit).toContain(`ExecStart=${process.execPath} ${agentNodeFlags().join(' ')} ${agentPath}\n`)
    expect(unit).toContain('ProtectSystem=strict')
    expect(JSON.parse(await readFile(join(root, 'etc/guard/agent.json'), 'utf8'))).toMatchObject({ collectorUrl: url })
    // Run again, it keeps the device it enrolled.
    const again = await run('sh', [script, '--root', root], { env })
    expect(again.stderr).toContain('already enrolled')
  }, 60_000)

  it('refuses an agent whose checksum is not the published one', async () => {
    tampered = createServer((_request, response) => response.end('console.log("not the agent")\n'))
    await new Promise<void>((resolve) => tampered!.listen(0, '127.0.0.1', resolve))
    const address = tampered.address() as { port: number }
    const root = join(dir, 'tampered')
    const refused = await run(
      'sh',
      [join(dir, 'install.sh'), '--root', root, '--collector', `http://127.0.0.1:${address.port}`, '--key', apiKey],
      { env },
    ).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('checksum mismatch') })
    expect(existsSync(join(root, 'usr/local/lib/guard-agent/guard-agent.mjs'))).toBe(false)
    expect(existsSync(join(root, 'etc/guard/agent.json'))).toBe(false)
  })
})
