import { type CheckResult, errorKind, newId } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { type DetectedTransition, stageMonitorEvents } from '../events/monitor-events.ts'
import { invalidateIngestedReads } from '../read-cache/invalidate.ts'

interface Orphan {
  monitor_id: string
  organization_id: string
  last_check_ms: number
  failure_threshold: number
}

interface LocationRow {
  location: string
  consecutive_failures: number
  last_error: string | null
  last_error_kind: string | null
}

/**
 * A dependent suppressed while its parent was down, and still down once every parent is up again
 * and it has been checked `failure_threshold` intervals since, is failing on its own. The state
 * machine has no transition left to tell (the monitor never came up), so this stages its
 * `monitor.down` again, at its last check: the incident engine then finds no parent down and opens
 * its incident. Its suppression ends. Returns the monitors released.
 *
 * A failure held behind a parent that was only failing waits while that parent is still below its
 * threshold, for at most the parent's `failure_threshold` intervals (of the dependent's checks)
 * after it was held; a parent that never went down lets it go then. The released monitors' cached
 * pages are invalidated once that commits: they no longer show the suppression.
 */
export async function releaseOrphanedSuppressions(ctx: CollectorContext): Promise<string[]> {
  const released = await ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<Orphan>(
      `SELECT f.monitor_id, f.organization_id, (extract(epoch FROM s.last_check_at) * 1000)::float8 AS last_check_ms,
              m.failure_threshold
         FROM monitoring.suppressed_failures f
         JOIN monitoring.monitors m ON m.id = f.monitor_id
         JOIN monitoring.monitor_state s ON s.monitor_id = f.monitor_id
        WHERE f.ended_at IS NULL AND s.status = 'down'
          AND NOT EXISTS (
            SELECT 1 FROM monitoring.monitor_dependencies d
              JOIN monitoring.monitors pm ON pm.id = d.depends_on_id
              LEFT JOIN monitoring.monitor_state ps ON ps.monitor_id = d.depends_on_id
             WHERE d.monitor_id = f.monitor_id
               AND (ps.status = 'down'
                    OR ps.changed_at + make_interval(secs => m.check_interval * m.failure_threshold) > s.last_check_at
                    OR EXISTS (SELECT 1 FROM monitoring.incidents i
                                WHERE i.monitor_id = d.depends_on_id AND i.cause = 'down' AND i.resolved_at IS NULL)
                    OR (f.started_at + make_interval(secs => pm.check_interval * pm.failure_threshold) > s.last_check_at
                        AND EXISTS (SELECT 1 FROM monitoring.monitor_location_state pl
                                     WHERE pl.monitor_id = d.depends_on_id AND pl.consecutive_failures > 0
                                       AND pl.consecutive_failures < pm.failure_threshold))))
        ORDER BY f.monitor_id
        FOR UPDATE OF f SKIP LOCKED`,
    )
    if (rows.length === 0) return []
    const transitions: DetectedTransition[] = []
    for (const orphan of rows) {
      const { rows: locations } = await tx.query<LocationRow>(
        `SELECT location, consecutive_failures, last_error, last_error_kind
           FROM monitoring.monitor_location_state WHERE monitor_id = $1 ORDER BY location`,
        [orphan.monitor_id],
      )
      const failing = locations.filter((row) => row.consecutive_failures >= orphan.failure_threshold)
      const deciding = failing[0] ?? locations[0]
      const kind = errorKind.safeParse(deciding?.last_error_kind)
      // What the event quotes of the deciding result: where and why it failed.
      const result: CheckResult = {
        v: 1,
        id: newId(),
        monitorId: orphan.monitor_id,
        organizationId: orphan.organization_id,
        location: deciding?.location ?? 'unknown',
        kind: 'http',
        status: 'down',
        startedAt: new Date(orphan.last_check_ms).toISOString(),
        responseTimeMs: 0,
        ...(deciding?.last_error ? { error: deciding.last_error } : {}),
        ...(kind.success ? { errorKind: kind.data } : {}),
      }
      transitions.push({
        kind: 'down',
        at: orphan.last_check_ms,
        monitorId: orphan.monitor_id,
        organizationId: orphan.organization_id,
        failing: failing.map((row) => row.location),
        total: locations.map((row) => row.location),
        result,
      })
    }
    await tx.query(
      'UPDATE monitoring.suppressed_failures SET ended_at = now() WHERE monitor_id = ANY($1) AND ended_at IS NULL',
      [rows.map((row) => row.monitor_id)],
    )
    await stageMonitorEvents(tx, transitions, [])
    return rows
  })
  await invalidateIngestedReads({
    ctx,
    organizationIds: released.map((row) => row.organization_id),
    monitorIds: released.map((row) => row.monitor_id),
  })
  return released.map((row) => row.monitor_id)
}
