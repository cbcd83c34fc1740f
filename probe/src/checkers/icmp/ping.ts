import { execFile } from 'node:child_process'

export interface PingSummary {
  transmitted: number
  received: number
  avgMs: number | undefined
}

/** Reads iputils' and busybox's summary lines: "3 packets transmitted, 3 received" and "min/avg/max". */
export function parsePingOutput(output: string): PingSummary | undefined {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output)
  if (!counts) return undefined
  const rtt = /= [\d.]+\/([\d.]+)\/[\d.]+/.exec(output)
  return {
    transmitted: Number(counts[1]),
    received: Number(counts[2]),
    avgMs: rtt?.[1] !== undefined ? Number(rtt[1]) : undefined,
  }
}

/**
 * Runs the system's `ping` (iputils): it uses an unprivileged ICMP datagram socket where
 * net.ipv4.ping_group_range allows it, or the raw-socket capability it is installed with.
 */
export function runPing(address: string, family: 4 | 6, count: number, timeoutMs: number, signal: AbortSignal) {
  const deadlineSeconds = Math.max(1, Math.ceil(timeoutMs / 1000))
  const args = [
    family === 6 ? '-6' : '-4',
    '-n',
    '-q',
    '-c',
    String(count),
    '-i',
    '0.2',
    '-w',
    String(deadlineSeconds),
    address,
  ]
  return new Promise<string>((resolve, reject) => {
    execFile('ping', args, { signal, timeout: timeoutMs + 1000 }, (error, stdout, stderr) => {
      // ping exits 1 when replies are missing; the summary still tells how many.
      if (error && !parsePingOutput(stdout)) {
        const code = 'code' in error ? error.code : undefined
        reject(
          code === 'ENOENT'
            ? new Error('ping is not installed (apt-get install iputils-ping)')
            : new Error(stderr.trim() || error.message),
        )
        return
      }
      resolve(stdout)
    })
  })
}
