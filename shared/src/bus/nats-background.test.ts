import { afterAll, describe, expect, it } from 'vitest'
import { guardStreams } from '../contracts/streams.ts'
import { startNatsServer } from '../testing/nats-server.ts'
import { createNatsBusInBackground } from './nats.ts'

const nats = await startNatsServer()

describe.skipIf(!nats)('createNatsBusInBackground', () => {
  afterAll(() => nats?.stop())

  it('returns while NATS is down, refuses publishes meanwhile, and connects once NATS is up', async () => {
    if (!nats) return
    await nats.stopKeepingData()
    const bus = createNatsBusInBackground({ servers: nats.url, name: 'background-test', streams: guardStreams })
    try {
      expect(bus.isConnected()).toBe(false)
      await expect(bus.publish('results.fra', new Uint8Array([1]), { msgId: 'a' })).rejects.toThrow(/not connected/)
      await bus.emit('probes.heartbeat.fra', new Uint8Array([1]))
      const kv = bus.kv('monitors')

      await nats.start()
      const bucket = await kv
      expect(bus.isConnected()).toBe(true)
      await bucket.put('m1', new TextEncoder().encode('{}'))
      expect((await bus.publish('results.fra', new Uint8Array([1]), { msgId: 'a' })).duplicate).toBe(false)
    } finally {
      await bus.close()
    }
  }, 30_000)

  it('gives up waiting when closed before NATS was ever reached', async () => {
    if (!nats) return
    await nats.stopKeepingData()
    const bus = createNatsBusInBackground({ servers: nats.url, name: 'background-test', streams: guardStreams })
    const kv = bus.kv('monitors')
    await bus.close()
    await expect(kv).rejects.toThrow(/closed before NATS/)
    await nats.start()
  })
})
