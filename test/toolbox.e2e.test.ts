import type { AddressInfo } from 'node:net'
import { createServer, type Server } from 'node:net'
import { createLogger, type Stoppable } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest, waitUntil } from '../collector/src/test-support.ts'
import { answerRequests } from '../probe/src/requests.ts'
import { type DnsFixture, startDnsFixture } from '../probe/src/testing/dns-server.ts'

/** The toolbox routes against the probe's real request handlers over one bus, on a listening collector. */
describe('toolbox on probes', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let probe: Stoppable[]
  let listener: Server
  let openPort: number
  let base: string
  let headers: Record<string, string>

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_ALLOW_PRIVATE_TARGETS: '1', GUARD_RATE_LIMIT_BULK: '1000' })
    app = await buildCollectorApp(harness.ctx)
    base = await app.listen({ port: 0, host: '127.0.0.1' })
    headers = { authorization: `Bearer ${harness.apiKey}`, 'content-type': 'application/json' }
    const log = createLogger({ name: 'probe-test', level: 'silent', pretty: false })
    probe = await answerRequests(harness.ctx.bus, 'fra', true, log)
    listener = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    openPort = (listener.address() as AddressInfo).port
  })
  afterAll(async () => {
    await Promise.all(probe.map((responder) => responder.stop()))
    listener.close()
    await app.close()
    await harness.close()
  })

  const post = (path: string, body: object, signal?: AbortSignal) =>
    fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) })

  /** Reads NDJSON lines as they arrive, each with the time it was read. */
  async function* lines(response: Response) {
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let buffered = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffered += decoder.decode(value, { stream: true })
      let newline = buffered.indexOf('\n')
      while (newline >= 0) {
        yield JSON.parse(buffered.slice(0, newline)) as {
          type: string
          progress?: number
          results?: unknown
          error?: string
          message?: string
        }
        buffered = buffered.slice(newline + 1)
        newline = buffered.indexOf('\n')
      }
    }
  }

  it('streams progress lines before the result line of a port scan', async () => {
    // The full range: on an idle machine a few thousand loopback ports finish before the first 250 ms progress tick.
    const ports = '1-65535'
    const total = 65_535
    const response = await post('/api/toolbox/port-scanner', { target: '127.0.0.1', ports, timeout: 500 })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/application\/x-ndjson/)
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
    const seen: Array<{ type: string; progress?: number; results?: unknown }> = []
    let progressBeforeResultArrived = false
    for await (const line of lines(response)) {
      // Read incrementally: a progress line is in hand while the scan is still running.
      if (line.type === 'progress' && !seen.some((earlier) => earlier.type === 'result')) {
        progressBeforeResultArrived = true
      }
      seen.push(line)
    }
    expect(progressBeforeResultArrived).toBe(true)
    expect(seen.filter((line) => line.type === 'progress').length).toBeGreaterThanOrEqual(1)
    expect(seen.at(-1)).toEqual({
      type: 'result',
      results: { openPorts: expect.arrayContaining([openPort]), totalScanned: total },
    })
    const percents = seen.filter((line) => line.type === 'progress').map((line) => line.progress!)
    expect(percents).toEqual([...percents].sort((a, b) => a - b))
  })

  it('streams progress 0 first and 100 just before the result, even for a scan done before the first tick', async () => {
    const response = await post('/api/toolbox/port-scanner', { target: '127.0.0.1', ports: [openPort] })
    const all = []
    for await (const line of lines(response)) all.push(line)
    expect(all[0]).toEqual({ type: 'progress', progress: 0 })
    expect(all.at(-2)).toEqual({ type: 'progress', progress: 100 })
    expect(all.at(-1)).toEqual({ type: 'result', results: { openPorts: [openPort], totalScanned: 1 } })
    const percents = all.filter((line) => line.type === 'progress').map((line) => line.progress!)
    expect(percents).toEqual([...percents].sort((a, b) => a - b))
  })

  it('scans an explicit list and range of ports', async () => {
    const response = await post('/api/toolbox/port-scanner', { target: '127.0.0.1', ports: `1-3,${openPort}` })
    const all = []
    for await (const line of lines(response)) all.push(line)
    expect(all.at(-1)).toEqual({ type: 'result', results: { openPorts: [openPort], totalScanned: 4 } })
  })

  it('stops the scan on the probe when the client disconnects', async () => {
    const progress: Array<{ scanned: number; total: number }> = []
    const cancels: string[] = []
    const watchProgress = await harness.ctx.bus.subscribe('toolbox.progress.>', (data) =>
      progress.push(JSON.parse(new TextDecoder().decode(data))),
    )
    const watchCancel = await harness.ctx.bus.subscribe('toolbox.cancel.>', (_data, subject) => cancels.push(subject))
    const abort = new AbortController()
    // 65,535 ports with one connection at a time would take minutes: the client leaves long before.
    const response = await post(
      '/api/toolbox/port-scanner',
      { target: '127.0.0.1', ports: '1-65535', timeout: 500 },
      abort.signal,
    )
    const reader = lines(response)
    expect((await reader.next()).value).toMatchObject({ type: 'progress' })
    // The first line comes as soon as the probe is asked; leave once the probe reports from the scan itself.
    await waitUntil(() => progress.length > 0, 'the probe scanning')
    abort.abort()
    await waitUntil(() => cancels.length === 1, 'the cancel message')
    // The probe reports every 250 ms while it scans: a quiet second means it stopped.
    let count = progress.length
    await waitUntil(async () => {
      await new Promise((resolve) => setTimeout(resolve, 600))
      const quiet = progress.length === count
      count = progress.length
      return quiet
    }, 'the probe to stop reporting')
    await watchProgress.stop()
    await watchCancel.stop()
    expect(progress.at(-1)!.scanned).toBeLessThan(65_535)
  })

  it('refuses a private target with the guard message as 400, before any probe is asked', async () => {
    harness.ctx.env.GUARD_ALLOW_PRIVATE_TARGETS = false
    try {
      for (const [path, body] of [
        ['/api/toolbox/port-scanner', { target: '127.0.0.1', scanType: 'quick' }],
        ['/api/toolbox/port-scanner', { target: 'localhost', ports: [22] }],
        ['/api/toolbox/ip-scanner', { ip: '10.1.2.3' }],
        ['/api/toolbox/dns-lookup', { domain: 'example.org', server: '169.254.169.254' }],
      ] as const) {
        const response = await post(path, body)
        expect(response.status, path).toBe(400)
        const answer = (await response.json()) as { error: string; message: string }
        expect(answer.error).toBe('VALIDATION_ERROR')
        expect(answer.message).toMatch(/^refused: .*GUARD_ALLOW_PRIVATE_TARGETS=1/)
      }
    } finally {
      harness.ctx.env.GUARD_ALLOW_PRIVATE_TARGETS = true
    }
  })

  it("tells a probe's refusal in the caller's terms, never naming the bus subject it travelled on", async () => {
    // A probe that refuses private targets, though the collector lets them through.
    const strict = await answerRequests(
      harness.ctx.bus,
      'ber',
      false,
      createLogger({ name: 'strict', level: 'silent' }),
    )
    try {
      // The stream began with progress 0 when the probe was asked: its refusal is the last line.
      const scan = await post('/api/toolbox/port-scanner', { target: '127.0.0.1', ports: [openPort], location: 'ber' })
      const all = []
      for await (const line of lines(scan)) all.push(line)
      expect(all.at(-1)).toEqual({
        type: 'error',
        error: 'VALIDATION_ERROR',
        message:
          'The probe could not run the port scan: refused: 127.0.0.1, a loopback address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets',
      })
      // The probe resolves and guards a name itself: one it can only reach privately is refused.
      const located = await post('/api/toolbox/ip-scanner', { ip: 'localhost', location: 'ber' })
      expect(located.status).toBe(400)
      const message = ((await located.json()) as { message: string }).message
      expect(message).toBe(
        'The probe could not run the IP lookup: refused: localhost does not resolve to a public address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets',
      )
      expect(message).not.toMatch(/probe\.|toolbox\.|request on/)
    } finally {
      await Promise.all(strict.map((responder) => responder.stop()))
    }
  })

  it('answers a DNS lookup of a name with a private address as one of a name without records', async () => {
    harness.ctx.env.GUARD_ALLOW_PRIVATE_TARGETS = false
    try {
      const response = await post('/api/toolbox/dns-lookup', { domain: 'localhost', record_type: 'A' })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ success: true, data: { domain: 'localhost', records: [], total: 0 } })
    } finally {
      harness.ctx.env.GUARD_ALLOW_PRIVATE_TARGETS = true
    }
  })

  it('refuses bad input with 400 and names the field', async () => {
    for (const [path, body, field] of [
      ['/api/toolbox/port-scanner', { target: '127.0.0.1', ports: '80-22' }, 'ports'],
      ['/api/toolbox/port-scanner', { target: '127.0.0.1', protocol: 'udp' }, 'protocol'],
      ['/api/toolbox/port-scanner', { target: '127.0.0.1', timeout: 1 }, 'timeout'],
      ['/api/toolbox/dns-lookup', { domain: 'example.org', record_type: 'XYZ' }, 'record_type'],
      ['/api/toolbox/ip-scanner', {}, 'ip'],
    ] as const) {
      const response = await post(path, body)
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(((await response.json()) as { message: string }).message).toContain(field)
    }
  })

  it('looks up DNS records on a probe, with their TTLs', async () => {
    const fixture: DnsFixture = await startDnsFixture({
      'api.test': [
        { type: 'MX', name: 'api.test', ttl: 300, data: { preference: 10, exchange: 'mx.api.test' } },
        { type: 'TXT', name: 'api.test', ttl: 60, data: 'hello' },
      ],
    })
    try {
      const response = await post('/api/toolbox/dns-lookup', {
        domain: 'api.test',
        record_type: 'MX',
        server: fixture.server,
      })
      expect(await response.json()).toEqual({
        success: true,
        data: {
          domain: 'api.test',
          records: [{ type: 'MX', name: 'api.test', value: '10 mx.api.test', ttl: 300 }],
          total: 1,
        },
      })
    } finally {
      await fixture.close()
    }
  })

  it('geolocates an IP address, and answers 503 when no probe is at the location named', async () => {
    const located = await post('/api/toolbox/ip-scanner', { ip: '8.8.8.8' })
    expect(await located.json()).toMatchObject({
      success: true,
      data: { ip: '8.8.8.8', country: 'US', organization: 'Google LLC' },
    })
    const nowhere = await post('/api/toolbox/ip-scanner', { ip: '8.8.8.8', location: 'mars' })
    expect(nowhere.status).toBe(503)
    expect(((await nowhere.json()) as { message: string }).message).toMatch(/No probe at location mars/)
  })
})
