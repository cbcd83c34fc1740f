import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { parseCanaryTargets, startCanary } from './canary.ts'

const waitFor = async (condition: () => boolean) => {
  for (let round = 0; round < 200 && !condition(); round += 1) await new Promise((r) => setTimeout(r, 10))
  return condition()
}

describe('the connectivity canary', () => {
  it('reads host:port lists, IPv6 in brackets, and refuses anything else', () => {
    expect(parseCanaryTargets(' 1.1.1.1:443, [2606:4700::1111]:53 ,')).toEqual([
      { host: '1.1.1.1', port: 443 },
      { host: '2606:4700::1111', port: 53 },
    ])
    expect(parseCanaryTargets('')).toEqual([])
    expect(() => parseCanaryTargets('example.org')).toThrow(/not host:port/)
  })

  it('is degraded while no target answers, and healthy again as soon as one does', async () => {
    const server = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const canary = startCanary([{ host: '127.0.0.1', port }], { intervalMs: 20, timeoutMs: 200 })
    try {
      expect(await waitFor(() => canary.degraded())).toBe(true)
      const revived = createServer((socket) => socket.end())
      await new Promise<void>((resolve) => revived.listen(port, '127.0.0.1', resolve))
      expect(await waitFor(() => !canary.degraded())).toBe(true)
      await new Promise<void>((resolve) => revived.close(() => resolve()))
    } finally {
      canary.stop()
    }
  })

  it('without targets is never degraded', () => {
    const canary = startCanary([], { intervalMs: 20, timeoutMs: 200 })
    expect(canary.degraded()).toBe(false)
    canary.stop()
  })
})
