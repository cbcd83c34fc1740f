import type { CheckResult } from '@guard/shared'

/** How a monitor decides it is down; defaults in README "Monitor state". */
export interface QuorumRules {
  /** Consecutive failed checks after which a location counts as failing. */
  failureThreshold: number
  /** Share of locations (percent) that must be failing for the monitor to be down. */
  quorumPercent: number
}

export const DEFAULT_RULES: QuorumRules = { failureThreshold: 2, quorumPercent: 50 }

/** The newest result that was not up, kept after recovery so "why was it down" has an answer. */
export interface ErrorState {
  kind: string
  message: string
  at: number
}

export interface LocationState {
  status: string
  consecutiveFailures: number
  lastResultAt: number
  lastError: ErrorState | null
}

export interface CertificateState {
  valid: boolean
  expiresAt: string
  issuer: string
}

export interface MonitorState {
  status: 'up' | 'down'
  changedAt: number
  lastCheckAt: number
  consecutiveFailures: number
  certificate: CertificateState | null
}

/** Everything the machine knows about one monitor, mutated in place as results arrive. */
export interface MonitorMachine {
  locations: Map<string, LocationState>
  state: MonitorState | undefined
}

export type Transition = { kind: 'down' | 'up'; at: number }

export function quorumStatus(locations: Iterable<LocationState>, rules: QuorumRules): 'up' | 'down' {
  let known = 0
  let failing = 0
  for (const location of locations) {
    known += 1
    if (location.consecutiveFailures >= rules.failureThreshold) failing += 1
  }
  return failing > 0 && failing * 100 >= rules.quorumPercent * known ? 'down' : 'up'
}

function someAnswered(locations: Iterable<LocationState>): boolean {
  for (const location of locations) if (location.status !== 'down') return true
  return false
}

/**
 * Feeds one result to the machine. A result not newer than the last one seen at its location is
 * ignored: that makes a redelivered batch a no-op and keeps late results from rewinding state. So
 * is a failure from a probe whose own connectivity canary was failing (`probeDegraded`): that
 * location keeps its last state, and the other locations decide the quorum.
 */
export function applyResult(machine: MonitorMachine, result: CheckResult, rules: QuorumRules): Transition | undefined {
  if (result.probeDegraded && result.status !== 'up') return undefined
  const at = Date.parse(result.startedAt)
  const previous = machine.locations.get(result.location)
  if (previous && previous.lastResultAt >= at) return undefined
  const failed = result.status === 'down'
  const error: ErrorState | null =
    result.status === 'up' ? null : { kind: result.errorKind ?? 'unknown', message: result.error ?? result.status, at }
  machine.locations.set(result.location, {
    status: result.status,
    consecutiveFailures: failed ? (previous?.consecutiveFailures ?? 0) + 1 : 0,
    lastResultAt: at,
    lastError: error ?? previous?.lastError ?? null,
  })
  const status = quorumStatus(machine.locations.values(), rules)
  const before = machine.state
  // The failure threshold keeps one failed check from taking a working monitor down; it is no
  // evidence that a monitor that never answered works. So a monitor with no state yet (unknown) and
  // no location whose newest result answered stays unknown until the quorum takes it down or a
  // check succeeds: it is never up before its first success.
  if (!before && status === 'up' && !someAnswered(machine.locations.values())) return undefined
  let consecutiveFailures = 0
  for (const location of machine.locations.values()) {
    consecutiveFailures = Math.max(consecutiveFailures, location.consecutiveFailures)
  }
  const certificate = result.certificate
    ? { valid: result.certificate.valid, expiresAt: result.certificate.expiresAt, issuer: result.certificate.issuer }
    : (before?.certificate ?? null)
  machine.state = {
    status,
    changedAt: before && before.status === status ? before.changedAt : at,
    lastCheckAt: Math.max(before?.lastCheckAt ?? 0, at),
    consecutiveFailures,
    certificate,
  }
  // Before the first result the monitor is unknown, and becoming up from there is no recovery.
  if (before?.status === status || (!before && status === 'up')) return undefined
  return { kind: status, at }
}
