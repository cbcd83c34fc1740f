import { GuardError, type GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { locateIp } from '../services/toolbox/locate-ip.ts'
import { lookupDns } from '../services/toolbox/lookup-dns.ts'
import { scanPorts } from '../services/toolbox/scan-ports.ts'
import {
  dnsLookupInput,
  dnsLookupResult,
  ipScanInput,
  ipScanResult,
  portScanErrorLine,
  portScanInput,
  portScanProgressLine,
  portScanResultLine,
} from '../services/toolbox/schemas.ts'
import { envelope, errorResponses, errorSchema, ok } from './common.ts'

/** Every toolbox call makes a probe reach out to a target: each counts as a bulk operation. */
const toolbox = { access: { permission: 'toolbox:read' as const }, bulk: true }

export function toolboxRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.post(
    '/api/toolbox/dns-lookup',
    {
      config: toolbox,
      schema: {
        description: 'Looks up one record type of a name on a probe (any probe unless `location` names one).',
        body: dnsLookupInput,
        response: { 200: envelope(dnsLookupResult), ...errorResponses, 502: errorSchema, 504: errorSchema },
      },
    },
    async (request) => ok(await lookupDns({ ctx, caller: callerOf(request), input: request.body })),
  )

  app.post(
    '/api/toolbox/ip-scanner',
    {
      config: toolbox,
      schema: {
        description:
          "Country, city, region and network operator of an IP address (a host name is resolved first), from the probe's offline databases.",
        body: ipScanInput,
        response: { 200: envelope(ipScanResult), ...errorResponses, 504: errorSchema },
      },
    },
    async (request) => ok(await locateIp({ ctx, caller: callerOf(request), input: request.body })),
  )

  app.post(
    '/api/toolbox/port-scanner',
    {
      config: toolbox,
      schema: {
        description:
          'TCP connect scan on a probe, streamed as NDJSON: a `progress` line at 0 when the probe is asked, one each time the probe reports (every 250 ms at most) and one at 100, rising, then one `result` line (or an `error` line when the scan fails after it started). Input and target are checked first: a refusal is a plain 4xx. Closing the connection stops the scan on the probe.',
        body: portScanInput,
        response: {
          200: {
            description: 'One JSON object per line',
            content: {
              'application/x-ndjson': {
                schema: z.union([portScanProgressLine, portScanResultLine, portScanErrorLine]),
              },
            },
          },
          ...errorResponses,
          504: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const raw = reply.raw
      const cancel = new AbortController()
      raw.on('close', () => {
        if (!raw.writableFinished) cancel.abort()
      })
      let streaming = false
      // Headers go out with the first line, so a refusal before the scan starts is a normal 4xx.
      const send = (line: object) => {
        if (!streaming) {
          streaming = true
          reply.hijack()
          for (const [name, value] of Object.entries(reply.getHeaders())) {
            if (value !== undefined) raw.setHeader(name, value)
          }
          raw.writeHead(200, {
            'content-type': 'application/x-ndjson; charset=utf-8',
            'cache-control': 'no-cache, no-transform',
            'x-accel-buffering': 'no',
          })
        }
        raw.write(`${JSON.stringify(line)}\n`)
      }
      try {
        const results = await scanPorts({
          ctx,
          caller: callerOf(request),
          input: request.body,
          onProgress: (progress) => {
            if (!cancel.signal.aborted) send({ type: 'progress', progress })
          },
          signal: cancel.signal,
        })
        send({ type: 'result', results })
        raw.end()
      } catch (error) {
        if (cancel.signal.aborted) {
          // The client left: nobody to answer, and nothing went wrong here.
          if (!streaming) reply.hijack()
          return
        }
        if (!streaming) throw error
        const failure = error instanceof GuardError ? error : new GuardError('INTERNAL_ERROR', 'The scan failed')
        if (!(error instanceof GuardError)) request.log.error({ err: error }, 'port scan failed')
        send({ type: 'error', error: failure.code, message: failure.message })
        raw.end()
      }
    },
  )
}
