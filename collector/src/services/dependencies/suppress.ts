import { newId, type Sql } from '@guard/shared'

interface ParentRow {
  parent_id: string
  name: string
  status: 'up' | 'down' | null
  own_incident: string | null
  inherited_incident: string | null
  failing: boolean
}

const DOWN = ' is down'
const DOWN_BEHIND = ' is down behind a failing dependency of its own'

export interface Suppression {
  parentId: string
  parentIncidentId: string | null
  reason: string
  /** The parent is not down but failing below its threshold: its verdict has not come yet. */
  pending: boolean
}

/**
 * The parent that explains a dependent's failure: one whose state is down or which has an open
 * `down` incident. One with an incident to link to is preferred: its own, or the one its own
 * failure is counted under when it is itself suppressed (the root cause of a chain). Failing that,
 * a parent with a location that failed its newest checks but is still below its failure threshold:
 * probes check monitors at their own moments, so a dependent may reach its threshold a check
 * before its parent does.
 */
export async function downParentOf(tx: Sql, monitorId: string): Promise<Suppression | undefined> {
  const { rows } = await tx.query<ParentRow>(
    `SELECT d.depends_on_id AS parent_id, m.name, s.status,
            (SELECT i.id FROM monitoring.incidents i
              WHERE i.monitor_id = d.depends_on_id AND i.cause = 'down' AND i.resolved_at IS NULL
              ORDER BY i.detected_at DESC LIMIT 1) AS own_incident,
            f.parent_incident_id AS inherited_incident,
            EXISTS (SELECT 1 FROM monitoring.monitor_location_state l
                     WHERE l.monitor_id = d.depends_on_id
                       AND l.consecutive_failures > 0 AND l.consecutive_failures < m.failure_threshold) AS failing
       FROM monitoring.monitor_dependencies d
       JOIN monitoring.monitors m ON m.id = d.depends_on_id
       LEFT JOIN monitoring.monitor_state s ON s.monitor_id = d.depends_on_id
       LEFT JOIN monitoring.suppressed_failures f ON f.monitor_id = d.depends_on_id AND f.ended_at IS NULL
      WHERE d.monitor_id = $1
      ORDER BY d.depends_on_id`,
    [monitorId],
  )
  const down = rows.filter((row) => row.status === 'down' || row.own_incident !== null)
  const parent =
    down.find((row) => row.own_incident !== null) ?? down.find((row) => row.inherited_incident !== null) ?? down[0]
  if (!parent) {
    const failing = rows.find((row) => row.failing)
    return failing
      ? {
          parentId: failing.parent_id,
          parentIncidentId: null,
          reason: `${failing.name} is failing (below its failure threshold)`,
          pending: true,
        }
      : undefined
  }
  return {
    parentId: parent.parent_id,
    parentIncidentId: parent.own_incident ?? parent.inherited_incident,
    reason: parent.own_incident
      ? `${parent.name}${DOWN}`
      : parent.inherited_incident
        ? `${parent.name}${DOWN_BEHIND}`
        : `${parent.name} is down (no incident of its own)`,
    pending: false,
  }
}

/**
 * Whether a `monitor.down` is the transition that took the monitor down, rather than one the
 * release job staged again for a dependent still down on its own (its moment is a later check).
 */
async function isFreshFailure(tx: Sql, monitorId: string, at: Date): Promise<boolean> {
  const { rows } = await tx.query<{ fresh: boolean }>(
    'SELECT $2::timestamptz <= changed_at AS fresh FROM monitoring.monitor_state WHERE monitor_id = $1',
    [monitorId, at],
  )
  return rows[0]?.fresh ?? true
}

/**
 * Records a dependent's failure as suppressed when a parent is down; says whether it did. A
 * redelivered event finds the failure already recorded and changes nothing. A failure behind a
 * parent that is only failing is held the same way, without an incident: the parent's incident
 * takes it when it opens (linkSuppressedTo), and the release job lets it go if the parent comes
 * back without one; a failure let go that way is not held again.
 */
export async function suppressFailure(
  tx: Sql,
  failure: { organizationId: string; monitorId: string; at: Date },
): Promise<boolean> {
  const cause = await downParentOf(tx, failure.monitorId)
  if (!cause) return false
  if (cause.pending && !(await isFreshFailure(tx, failure.monitorId, failure.at))) return false
  await tx.query(
    `INSERT INTO monitoring.suppressed_failures
       (id, organization_id, monitor_id, parent_id, parent_incident_id, started_at, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (monitor_id) WHERE ended_at IS NULL DO NOTHING`,
    [
      newId(),
      failure.organizationId,
      failure.monitorId,
      cause.parentId,
      cause.parentIncidentId,
      failure.at,
      cause.reason,
    ],
  )
  return true
}

/**
 * The dependent is up again: its suppressed failure ends (its own checks decide, never its parent's).
 * Says whether one was open.
 */
export async function endSuppression(tx: Sql, monitorId: string, at: Date): Promise<boolean> {
  const { rows } = await tx.query(
    'UPDATE monitoring.suppressed_failures SET ended_at = $2 WHERE monitor_id = $1 AND ended_at IS NULL RETURNING id',
    [monitorId, at],
  )
  return rows.length > 0
}

/**
 * A parent's incident opened (or reopened) after its dependents' failures were recorded (their
 * events were handled first, or the parent was still below its threshold): links them, and the
 * failures suppressed behind them, to it, and words their reasons as if the incident had been there.
 * Returns the dependents linked.
 */
export async function linkSuppressedTo(tx: Sql, parentId: string, incidentId: string): Promise<string[]> {
  const { rows } = await tx.query<{ monitor_id: string }>(
    `WITH RECURSIVE chain (id) AS (
       SELECT $1::text
       UNION
       SELECT f.monitor_id FROM monitoring.suppressed_failures f JOIN chain c ON f.parent_id = c.id
        WHERE f.ended_at IS NULL
     )
     UPDATE monitoring.suppressed_failures f
        SET parent_incident_id = $2, reason = p.name || CASE WHEN f.parent_id = $1 THEN $3 ELSE $4 END
       FROM monitoring.monitors p
      WHERE p.id = f.parent_id
        AND f.ended_at IS NULL AND f.parent_incident_id IS NULL AND f.parent_id IN (SELECT id FROM chain)
     RETURNING f.monitor_id`,
    [parentId, incidentId, DOWN, DOWN_BEHIND],
  )
  return rows.map((row) => row.monitor_id)
}
