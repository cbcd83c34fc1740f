import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { agentHeartbeat, decodeDeviceHeartbeat, encodeDeviceHeartbeat } from './agent-heartbeat.ts'
import { decodeDeviceEvent, deviceEventSubject, encodeDeviceEvent } from './device-events.ts'

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8')
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
const canonical = (data: Uint8Array) => JSON.parse(new TextDecoder().decode(data))

describe('device heartbeat v1 wire contract', () => {
  const message = JSON.parse(golden('device-heartbeat.v1.golden.json'))

  it('decodes and re-encodes the golden message unchanged', () => {
    expect(canonical(encodeDeviceHeartbeat(decodeDeviceHeartbeat(bytes(message))))).toEqual(message)
  })

  it('accepts the spec body alone: device_id and the three metrics', () => {
    const body = { device_id: 'd', metrics: message.heartbeat.metrics }
    const { load: _load, filesystems: _fs, ...specMetrics } = body.metrics
    expect(agentHeartbeat.safeParse({ ...body, metrics: specMetrics }).success).toBe(true)
  })

  it('refuses another version, an unknown field and a percentage above 100', () => {
    expect(() => decodeDeviceHeartbeat(bytes({ ...message, v: 2 }))).toThrow()
    expect(agentHeartbeat.safeParse({ ...message.heartbeat, extra: 1 }).success).toBe(false)
    const cpu = { usage_percent: 101, cores: 4 }
    expect(
      agentHeartbeat.safeParse({ ...message.heartbeat, metrics: { ...message.heartbeat.metrics, cpu } }).success,
    ).toBe(false)
  })
})

describe('device events v1 wire contract', () => {
  const events = JSON.parse(golden('device-events.v1.golden.json')) as unknown[]

  it('round-trips every golden event unchanged', () => {
    for (const event of events) expect(canonical(encodeDeviceEvent(decodeDeviceEvent(bytes(event))))).toEqual(event)
  })

  it('publishes each kind on its own subject under events.device', () => {
    const subjects = events.map((event) => deviceEventSubject(decodeDeviceEvent(bytes(event)).type))
    expect(subjects).toEqual(['events.device.offline', 'events.device.online', 'events.device.health'])
  })

  it('refuses an unknown event type and an unknown health value', () => {
    const health = events[2] as Record<string, unknown>
    expect(() => decodeDeviceEvent(bytes({ ...health, type: 'device.exploded' }))).toThrow()
    expect(() =>
      decodeDeviceEvent(bytes({ ...health, data: { ...(health.data as object), current: 'meh' } })),
    ).toThrow()
  })
})
