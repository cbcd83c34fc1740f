import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningCollector, startCollector } from '@guard/collector'
import {
  type Bus,
  createInProcessBus,
  createLogger,
  type DeviceEvent,
  decodeDeviceEvent,
  guardStreams,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { freePort, openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentNodeFlags } from '../agent/src/node-flags.ts'
import { parseCollectorEnv } from '../collector/src/env.ts'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

/**
 * The real agent process (`guard agent enroll`, then `guard agent`) against a collector that is
 * stopped and started again on the same port, as an operator's deployment would see it.
 */
describe('device agent end to end', () => {
  let dir: string
  let sql: RelationalStore
  let timeseries: TimeSeriesStore
  let bus: Bus
  let collector: RunningCollector
  let port: number
  let apiKey: string
  let agent: GuardProcess | undefined
  let deviceId: string
  const events: DeviceEvent[] = []
  const env = () =>
    parseCollectorEnv({
      GUARD_COLLECTOR_PORT: String(port),
      GUARD_INGEST_MAX_WAIT_MS: '50',
      GUARD_DEVICE_OFFLINE_MIN_SECONDS: '3',
      GUARD_DEVICE_OFFLINE_CRON: '* * * * * *',
    })
  const log = createLogger({ name: 'agent-e2e', level: 'silent', pretty: false })
  const start = async () => {
    collector = await startCollector({ env: env(), log, sql, timeseries, bus })
    return collector
  }
  const url = () => `http://127.0.0.1:${port}`
  const api = () => collectorClient(url(), apiKey)
  const storedTimes = async () => {
    const result = await timeseries.client.query({
      query: `SELECT toUnixTimestamp64Milli(timestamp) AS ms FROM device_metrics FINAL
               WHERE device_id = {id:String} AND type = 'cpu' AND name = 'usage' ORDER BY timestamp`,
      query_params: { id: deviceId },
      format: 'JSONEachRow',
    })
    return (await result.json<{ ms: number }>()).map((row) => Number(row.ms))
  }
  const runAgent = () =>
    spawnGuard(['agent', '--config', join(dir, 'agent.json')], {
      GUARD_AGENT_SPOOL_DIR: join(dir, 'spool'),
      GUARD_AGENT_INVENTORY_SECONDS: '10',
      LOG_LEVEL: 'info',
    })

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-agent-e2e-'))
    sql = await openTestRelationalStore()
    timeseries = await openTestTimeSeriesStore()
    bus = createInProcessBus({ streams: guardStreams })
    await bus.subscribe('events.device.>', (data) => events.push(decodeDeviceEvent(data)))
    port = await freePort()
    apiKey = (await start()).bootstrapApiKey!
  })
  afterAll(async () => {
    await agent?.stop('SIGKILL')
    await collector?.close()
    await bus.close()
    await timeseries.close()
    await sql.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('enrols with guard agent enroll, writing a 0600 config file', async () => {
    const enroll = spawnGuard(
      [
        'agent',
        'enroll',
        '--collector',
        url(),
        '--key',
        apiKey,
        '--name',
        'e2e-box',
        '--config',
        join(dir, 'agent.json'),
        '--interval',
        '1',
      ],
      {},
    )
    const [, id] = await enroll.waitFor(/Enrolled device (\S+);/, 60_000)
    deviceId = id!
    if (enroll.child.exitCode === null) await new Promise((resolve) => enroll.child.once('exit', resolve))
    expect(enroll.child.exitCode).toBe(0)
    expect((await stat(join(dir, 'agent.json'))).mode & 0o777).toBe(0o600)
  })

  it('writes a hardened systemd unit with guard agent install', async () => {
    const unit = join(dir, 'guard-agent.service')
    const install = spawnGuard(['agent', 'install', '--unit', unit, '--config', join(dir, 'agent.json')], {})
    await install.waitFor(/systemctl enable --now guard-agent/, 60_000)
    const text = await readFile(unit, 'utf8')
    // The flags the running Node takes: Node 24 refuses --no-expose-wasm (agent/src/node-flags.ts).
    expect(text).toMatch(
      new RegExp(`^ExecStart=\\S+node ${agentNodeFlags().join(' ')} \\S+/dist/guard-agent\\.mjs$`, 'm'),
    )
    expect(text).toContain('User=guard-agent')
    expect(text).toContain('ProtectSystem=strict')
  })

  it('reports metrics, system info, processes, applications and connections', async () => {
    agent = runAgent()
    const detail = await eventually(
      async () => {
        const { body } = await api().get(`/api/devices/${deviceId}`)
        const data = body.data as { hostname: string | null; isOnline: boolean }
        return data.hostname && data.isOnline ? data : undefined
      },
      'the device online with its system info',
      60_000,
    )
    expect(detail).toMatchObject({ platform: 'linux', cpuCores: expect.any(Number), totalMemory: expect.any(Number) })
    for (const type of ['cpu', 'memory', 'disk', 'network']) {
      await eventually(async () => {
        const { body } = await api().get(`/api/devices/${deviceId}/metrics?type=${type}&range=1h`)
        return (body.data as unknown[]).length > 0 ? true : undefined
      }, `${type} metrics`)
    }
    const processes = (await api().get(`/api/devices/${deviceId}/processes`)).body.data as Array<{ pid: number }>
    expect(processes.length).toBeGreaterThan(0)
    const applications = (await api().get(`/api/devices/${deviceId}/applications`)).body.data as unknown[]
    expect(applications.length).toBeGreaterThan(0)
    const connections = (await api().get(`/api/devices/${deviceId}/network`)).body.data as Array<{ localPort: number }>
    expect(connections.some((connection) => connection.localPort === port)).toBe(true)
  }, 90_000)

  it('spools while the collector is down and stores every heartbeat once, in order, with its own time', async () => {
    const before = (await storedTimes()).length
    await collector.close()
    const downAt = Date.now()
    // Only written heartbeats count: a spool also holds the file being written until it is renamed.
    const spoolFiles = async () => (await readdir(join(dir, 'spool'))).filter((name) => name.endsWith('.json.gz'))
    await eventually(async () => ((await spoolFiles()).length >= 3 ? true : undefined), 'a spool', 30_000)
    const upAt = Date.now()
    // The spool's file names carry each heartbeat's original time.
    const spooled = (await spoolFiles()).map((name) => Number(name.slice(0, 15)))
    await start()
    await eventually(
      async () => ((await readdir(join(dir, 'spool'))).length === 0 ? true : undefined),
      'an empty spool',
      60_000,
    )
    const times = await eventually(async () => {
      const stored = await storedTimes()
      return stored.some((time) => time > upAt) ? stored : undefined
    }, 'heartbeats after the outage')
    expect(new Set(times).size).toBe(times.length)
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect(spooled.length).toBeGreaterThanOrEqual(3)
    for (const time of spooled) expect(times).toContain(time)
    expect(spooled.filter((time) => time > downAt && time < upAt).length).toBeGreaterThanOrEqual(2)
    expect(times.length).toBeGreaterThanOrEqual(before + spooled.length)
    expect(agent!.child.exitCode).toBeNull()
  }, 120_000)

  it('goes offline three intervals after the agent stops, with one event, and online on its next heartbeat', async () => {
    // On a loaded machine the replay after the outage may itself have outlasted the offline limit;
    // only what follows this test's own stop counts.
    await eventually(async () => {
      const { body } = await api().get(`/api/devices/${deviceId}`)
      return (body.data as { isOnline: boolean }).isOnline || undefined
    }, 'the device online before the stop')
    const mark = events.length
    const mine = () =>
      events.slice(mark).filter((event) => event.data.deviceId === deviceId && event.type !== 'device.health')
    expect(await agent!.stop('SIGTERM')).toBe(0)
    await eventually(
      () => Promise.resolve(mine().some((event) => event.type === 'device.offline') || undefined),
      'a device.offline event',
      30_000,
    )
    expect(((await api().get(`/api/devices/${deviceId}`)).body.data as { isOnline: boolean }).isOnline).toBe(false)
    agent = runAgent()
    await eventually(
      () =>
        Promise.resolve(mine().some((event) => event.type === 'device.online' && event.data.wasOffline) || undefined),
      'a device.online event',
      30_000,
    )
    expect(mine().map((event) => event.type)).toEqual(['device.offline', 'device.online'])
  }, 90_000)
})
