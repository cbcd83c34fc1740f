import type { Sql } from '@guard/shared'
import { truncateText } from '@guard/shared'

import { monitorKinds, type SubjectKind } from '../monitors/kinds/index.ts'

export type ChangedKind = SubjectKind | 'status-page'
const label = (kind: ChangedKind) => (kind === 'status-page' ? 'Status page' : monitorKinds[kind].title)

/**
 * A monitor, device or status page created or deleted, as one line of the activity feed. These
 * are API writes, not bus events: the line is written in the write's own transaction, so the feed
 * holds it exactly when the change happened. Its id (`domain.created:<id>`) makes a repeat a no-op.
 */
export async function recordChange(
  db: Pick<Sql, 'query'>,
  change: { organizationId: string; kind: ChangedKind; action: 'created' | 'deleted'; id: string; name: string },
): Promise<void> {
  const type = `${change.kind}.${change.action}`
  await db.query(
    `INSERT INTO monitoring.activity (event_id, organization_id, type, summary, subject_id, occurred_at)
     VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (event_id) DO NOTHING`,
    [
      `${type}:${change.id}`,
      change.organizationId,
      type,
      truncateText(`${label(change.kind)} ${change.name} ${change.action}`, 500),
      change.id,
    ],
  )
}
