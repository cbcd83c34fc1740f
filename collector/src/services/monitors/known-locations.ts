import { GuardError } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/**
 * Locations a monitor may name: every location a probe has ever sent a heartbeat from, plus the
 * configured ones (GUARD_LOCATIONS, GUARD_DEFAULT_LOCATIONS) for probes not deployed yet.
 */
export async function knownLocations(ctx: CollectorContext): Promise<Set<string>> {
  const { rows } = await ctx.sql.query<{ location: string }>('SELECT DISTINCT location FROM monitoring.probes')
  return new Set([
    ...rows.map((row) => row.location),
    ...ctx.env.GUARD_LOCATIONS,
    ...ctx.env.GUARD_DEFAULT_LOCATIONS.filter((code) => code !== '*'),
  ])
}

/** 400 naming the first location no probe has reported from and no configuration lists. */
export async function assertKnownLocations(ctx: CollectorContext, locations: string[]): Promise<void> {
  const named = locations.filter((code) => code !== '*')
  if (named.length === 0) return
  const known = await knownLocations(ctx)
  const unknown = named.find((code) => !known.has(code))
  if (unknown) {
    const list = [...known].sort().join(', ') || 'none yet'
    throw new GuardError('VALIDATION_ERROR', `locations: unknown location ${unknown} (known: ${list})`)
  }
}
