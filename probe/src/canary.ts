import { connect } from 'node:net'

export interface CanaryTarget {
  host: string
  port: number
}

export interface Canary {
  /** Whether every canary target failed at the last round: this probe's own network is down. */
  degraded(): boolean
  stop(): void
}

/** `host:port,host:port` (an IPv6 host in brackets); empty: no canary. */
export function parseCanaryTargets(text: string): CanaryTarget[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = entry.match(/^\[?([^\]]+?)\]?:(\d{1,5})$/)
      const port = Number(match?.[2])
      if (!match || port < 1 || port > 65_535) throw new Error(`canary target ${entry} is not host:port`)
      return { host: match[1]!, port }
    })
}

const reachable = (target: CanaryTarget, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: target.host, port: target.port, timeout: timeoutMs })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => done(true))
    socket.once('timeout', () => done(false))
    socket.once('error', () => done(false))
  })

/**
 * Connects to each target every `intervalMs`; the probe is degraded while none answers. Several
 * independent targets (different networks) keep one target's outage from silencing the probe.
 */
export function startCanary(targets: CanaryTarget[], options: { intervalMs: number; timeoutMs: number }): Canary {
  let degraded = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const round = async () => {
    const answers = await Promise.all(targets.map((target) => reachable(target, options.timeoutMs)))
    degraded = !answers.some(Boolean)
    if (!stopped) timer = setTimeout(() => void round(), options.intervalMs)
  }
  if (targets.length > 0) void round()
  return {
    degraded: () => degraded,
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
