import { connect } from 'node:net'
import { type PortScanProgress, type PortScanReply, type PortScanRequest, resolveAllowedTarget } from '@guard/shared'
import { COMMON_PORTS } from './common-ports.ts'

const PROGRESS_EVERY_MS = 250

function portsOf(request: PortScanRequest): number[] {
  if (request.ports === 'quick') return [...COMMON_PORTS.keys()]
  if (Array.isArray(request.ports)) return [...new Set(request.ports)].sort((a, b) => a - b)
  const { from, to } = request.ports
  return Array.from({ length: to - from + 1 }, (_, index) => from + index)
}

/** Whether a TCP connection to the port is accepted within the timeout; refused and silent ports alike are closed. */
function probePort(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port })
    const finish = (open: boolean) => {
      socket.destroy()
      resolve(open)
    }
    socket.setTimeout(timeoutMs, () => finish(false))
    socket.once('connect', () => finish(true))
    socket.once('error', () => finish(false))
  })
}

/**
 * TCP connect scan of the vetted address with bounded concurrency. `onProgress` gets the ports
 * found open since its last call, at most every 250 ms and once at the end. Once `signal` aborts,
 * no further port is tried and the scan rejects with `cancelled`.
 */
export async function scanPorts(
  request: PortScanRequest,
  allowPrivate: boolean,
  onProgress: (progress: PortScanProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<PortScanReply> {
  const started = performance.now()
  const vetted = await resolveAllowedTarget(request.host, { allowPrivate })
  const ports = portsOf(request)
  const open: number[] = []
  let unreported: number[] = []
  let scanned = 0
  let next = 0
  let lastProgress = performance.now()
  const report = () => {
    onProgress({ v: 1, scanned, total: ports.length, open: unreported })
    unreported = []
    lastProgress = performance.now()
  }
  // A fixed pool of workers taking the next port, rather than one queued task per port: a full
  // scan would otherwise park 65,535 waiters in a queue.
  const worker = async () => {
    while (next < ports.length && !signal?.aborted) {
      const port = ports[next++]!
      if (await probePort(vetted.address, port, request.timeoutMs)) {
        open.push(port)
        unreported.push(port)
      }
      scanned += 1
      if (performance.now() - lastProgress >= PROGRESS_EVERY_MS) report()
    }
  }
  await Promise.all(Array.from({ length: Math.min(request.concurrency, ports.length) }, worker))
  if (signal?.aborted) throw new Error(`cancelled after ${scanned} of ${ports.length} ports`)
  unreported.sort((a, b) => a - b)
  report()
  return {
    v: 1,
    host: request.host,
    address: vetted.address,
    scanned,
    open: open
      .sort((a, b) => a - b)
      .map((port) => {
        const service = COMMON_PORTS.get(port)
        return service ? { port, service } : { port }
      }),
    durationMs: Math.round(performance.now() - started),
  }
}
