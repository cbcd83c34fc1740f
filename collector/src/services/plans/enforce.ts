import { GuardError, type OrganizationPlan, type PlanLimitName, type Sql } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/** What a monitor write (create or update of a domain or service) sets, as far as plans care. */
export interface MonitorWrite {
  organizationId: string
  /** A create adds a monitor; an update does not. */
  adds: boolean
  /** The interval the write sets; undefined when an update leaves it alone. */
  checkInterval?: number | undefined
  /** The locations the write sets (`*` = every location); undefined when an update leaves them alone. */
  locations?: readonly string[] | undefined
}

const LIMIT_WORDS: Record<PlanLimitName, (value: number) => string> = {
  monitors: (value) => `${value} monitor${value === 1 ? '' : 's'}`,
  minIntervalSeconds: (value) => `a check interval of ${value} seconds or more`,
  minBrowserIntervalSeconds: (value) => `browser checks every ${value} seconds or more`,
  locations: (value) => `${value} location${value === 1 ? '' : 's'} per monitor`,
  statusPages: (value) => `${value} status page${value === 1 ? '' : 's'}`,
  retentionDays: (value) => `${value} days of history`,
}

type Plan = NonNullable<OrganizationPlan['plan']>

/** 403 PLAN_LIMIT with the limit's name, its value and the plan, in the body and in the message. */
export function planLimitError(plan: Plan, limit: PlanLimitName, value: number, found: string): GuardError {
  return new GuardError(
    'PLAN_LIMIT',
    `The ${plan.name} plan (${plan.id}) allows ${LIMIT_WORDS[limit](value)}; ${found}. Change it or move the organization to a larger plan.`,
    { limit, value, plan: plan.id },
  )
}

/**
 * How many locations a monitor runs from: its list, where `*` (every location) counts every
 * location whose probes send heartbeats, at least one.
 */
export async function countLocations(tx: Sql, locations: readonly string[]): Promise<number> {
  if (!locations.includes('*')) return new Set(locations).size
  const { rows } = await tx.query<{ count: number }>(
    'SELECT count(DISTINCT location)::int AS count FROM monitoring.probes',
  )
  return Math.max(1, rows[0]?.count ?? 0)
}

/** Domains and services of the organization: what the `monitors` limit counts. */
export async function countMonitors(sql: Sql, organizationId: string): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM monitoring.monitors WHERE organization_id = $1',
    [organizationId],
  )
  return rows[0]?.count ?? 0
}

/**
 * Runs a monitor write under its organization's plan: the plan is read first (from identity,
 * cached, outside any transaction), then `write` runs in a transaction that holds the
 * organization's plan lock while it counts and writes, so concurrent creates (on any replica,
 * since the lock is PostgreSQL's) cannot together pass the monitor limit. Refuses with 403
 * PLAN_LIMIT: one monitor too many, an interval below the plan's minimum, more locations than
 * the plan allows per monitor. An organization without a plan is not limited.
 */
export async function enforcePlan<T>(
  ctx: Pick<CollectorContext, 'sql' | 'plans'>,
  monitor: MonitorWrite,
  write: (tx: Sql) => Promise<T>,
): Promise<T> {
  const { plan } = await ctx.plans.planOf(monitor.organizationId)
  if (!plan) return write(ctx.sql)
  const { limits } = plan
  if (monitor.checkInterval !== undefined && limits.minIntervalSeconds !== undefined) {
    if (monitor.checkInterval < limits.minIntervalSeconds) {
      throw planLimitError(
        plan,
        'minIntervalSeconds',
        limits.minIntervalSeconds,
        `checkInterval ${monitor.checkInterval} is shorter`,
      )
    }
  }
  return ctx.sql.transaction(async (tx) => {
    if (monitor.locations !== undefined && limits.locations !== undefined) {
      const count = await countLocations(tx, monitor.locations)
      if (count > limits.locations) {
        const named = monitor.locations.includes('*') ? "'*' (every location) means" : 'the monitor names'
        throw planLimitError(plan, 'locations', limits.locations, `${named} ${count}`)
      }
    }
    if (monitor.adds && limits.monitors !== undefined) {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('guard.plan-monitors'), hashtext($1))", [
        monitor.organizationId,
      ])
      const count = await countMonitors(tx, monitor.organizationId)
      if (count + 1 > limits.monitors) {
        throw planLimitError(plan, 'monitors', limits.monitors, `the organization has ${count} already`)
      }
    }
    return write(tx)
  })
}

/**
 * A browser check's interval against its organization's plan (`minBrowserIntervalSeconds`):
 * each run starts a browser, so plans keep them rarer than other checks. 403 PLAN_LIMIT naming it.
 */
export async function enforceBrowserInterval(
  ctx: Pick<CollectorContext, 'plans'>,
  organizationId: string,
  checkInterval: number,
): Promise<void> {
  const { plan } = await ctx.plans.planOf(organizationId)
  const minimum = plan?.limits.minBrowserIntervalSeconds
  if (plan && minimum !== undefined && checkInterval < minimum) {
    throw planLimitError(plan, 'minBrowserIntervalSeconds', minimum, `checkInterval ${checkInterval} is shorter`)
  }
}
