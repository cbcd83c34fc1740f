import type { CollectorContext } from '../../context.ts'

/**
 * The locations with an online probe that has a browser (heartbeat `browser: true`): the only
 * places a browser check runs. Probes are platform infrastructure shared by every organization.
 */
export async function findBrowserLocations(ctx: Pick<CollectorContext, 'sql' | 'env'>): Promise<Set<string>> {
  const { rows } = await ctx.sql.query<{ location: string }>(
    `SELECT DISTINCT location FROM monitoring.probes
      WHERE (heartbeat->>'browser')::boolean IS TRUE
        AND last_heartbeat_at >= now() - make_interval(secs => $1)`,
    [ctx.env.GUARD_PROBE_OFFLINE_AFTER_SECONDS],
  )
  return new Set(rows.map((row) => row.location))
}
