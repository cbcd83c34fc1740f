import { randomUUID } from 'node:crypto'
import {
  decodeJson,
  encodeJson,
  GuardError,
  type PortScanReply,
  type PortScanRequest,
  portScanProgressV1,
  portScanReplyV1,
  toolboxSubject,
} from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { askProbe, guardTarget } from './ask-probe.ts'
import { type PortScanInput, type PortScanResult, portScanInput } from './schemas.ts'

/** Concurrent connections the probe keeps open per scan: enough for a full scan in minutes. */
const CONCURRENCY = 200

const SCAN_TYPE_PORTS = {
  quick: 'quick',
  common: { from: 1, to: 1024 },
  full: { from: 1, to: 65_535 },
} as const

/** The probe's port set for the input: explicit ports win over scanType; neither is a quick scan. */
function portsOf(input: ReturnType<typeof portScanInput.parse>): PortScanRequest['ports'] {
  const { ports, scanType } = input
  if (ports === undefined) return SCAN_TYPE_PORTS[scanType ?? 'quick']
  if (Array.isArray(ports)) return ports
  const single = ports.match(/^(\d+)-(\d+)$/)
  if (single) {
    const [from, to] = [Number(single[1]), Number(single[2])]
    if (from < 1 || to > 65_535 || from > to) throw portError(ports)
    return { from, to }
  }
  const expanded = new Set<number>()
  for (const part of ports.split(',')) {
    const [from, to = from] = part.trim().split('-').map(Number) as [number, number?]
    if (from < 1 || to > 65_535 || from > to) throw portError(part)
    if (to - from + expanded.size > 65_535) throw portError(part)
    for (let port = from; port <= to; port += 1) expanded.add(port)
  }
  return [...expanded]
}

const portError = (part: string) =>
  new GuardError('VALIDATION_ERROR', `ports: ${part.trim()} is not a port (1-65535) or an ascending range`)

const countOf = (ports: PortScanRequest['ports']) =>
  ports === 'quick' ? 100 : Array.isArray(ports) ? ports.length : ports.to - ports.from + 1

/**
 * TCP connect scan on a probe. `onProgress` gets 0 when the probe is asked, the percentage scanned
 * each time the probe reports (every 250 ms at most), and 100 before the result, always rising;
 * aborting `signal` tells the probe to stop and rejects. Input and the SSRF guard are checked
 * before the probe is asked, so refusals come before any progress.
 */
export async function scanPorts({
  ctx,
  caller,
  input,
  onProgress = () => {},
  signal,
}: {
  ctx: CollectorContext
  caller: Caller
  input: PortScanInput
  onProgress?: (percent: number) => void
  signal?: AbortSignal
}): Promise<PortScanResult> {
  requirePermission(caller, 'toolbox:read')
  const parsed = portScanInput.parse(input)
  const ports = portsOf(parsed)
  await guardTarget(ctx, parsed.target)
  signal?.throwIfAborted()
  const id = randomUUID()
  const progressSubject = `toolbox.progress.${id}`
  const cancelSubject = `toolbox.cancel.${id}`
  let reported = -1
  const report = (percent: number) => {
    if (percent <= reported) return
    reported = percent
    onProgress(percent)
  }
  const progress = await ctx.bus.subscribe(progressSubject, (data) => {
    try {
      const event = decodeJson(portScanProgressV1, data)
      report(event.total ? Math.round((event.scanned / event.total) * 1000) / 10 : 100)
    } catch {
      // A malformed progress event is dropped; the reply carries the result.
    }
  })
  const cancel = () => void ctx.bus.emit(cancelSubject, encodeJson({ v: 1 })).catch(() => {})
  signal?.addEventListener('abort', cancel, { once: true })
  const request: PortScanRequest = {
    v: 1,
    host: parsed.target,
    ports,
    concurrency: CONCURRENCY,
    timeoutMs: parsed.timeout,
    progressSubject,
    cancelSubject,
  }
  // Every port may wait the whole timeout: the reply can take that long, plus a margin.
  const timeoutMs = Math.ceil(countOf(ports) / CONCURRENCY) * parsed.timeout + 30_000
  report(0)
  let reply: PortScanReply
  try {
    reply = decodeJson(
      portScanReplyV1,
      await askProbe(ctx, {
        task: 'the port scan',
        subject: toolboxSubject(parsed.location ?? 'any', 'ports'),
        body: encodeJson(request),
        location: parsed.location,
        timeoutMs,
      }),
    )
  } finally {
    signal?.removeEventListener('abort', cancel)
    await progress.stop()
  }
  // A scan shorter than the probe's first tick reports nothing, and its last tick may trail the
  // reply on the bus: the stream still ends at 100.
  report(100)
  return { openPorts: reply.open.map((open) => open.port), totalScanned: reply.scanned }
}
