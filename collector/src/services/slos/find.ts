import { GuardError, notFound, type Sql } from '@guard/shared'
import { type MonitorRowKind, monitorKinds, PROBE_KINDS, type SubjectKind } from '../monitors/kinds/index.ts'
import type { BurnAlert } from './arithmetic.ts'
import type { SloView } from './schemas.ts'

export interface SloRow {
  id: string
  organization_id: string
  name: string
  monitor_id: string | null
  group_id: string | null
  subject_name: string | null
  monitor_kind: MonitorRowKind | null
  objective: number
  window_type: 'rolling' | 'calendar-month'
  window_days: number | null
  burn_alerts: BurnAlert[]
  burning: { severity: BurnAlert['severity']; since: string; burnRate: number } | null
  created_at: Date
  updated_at: Date
}

/** Columns of `monitoring.slos s`, with the subject's current name (monitor or group). */
export const SLO_SELECT = `SELECT s.id, s.organization_id, s.name, s.monitor_id, s.group_id,
       COALESCE(m.name, g.name) AS subject_name, m.kind AS monitor_kind, s.objective, s.window_type, s.window_days, s.burn_alerts,
       s.burning, s.created_at, s.updated_at
  FROM monitoring.slos s
  LEFT JOIN monitoring.monitors m ON m.id = s.monitor_id
  LEFT JOIN monitoring.monitor_groups g ON g.id = s.group_id`

export const windowOf = (row: SloRow): SloView['window'] =>
  row.window_type === 'rolling' ? { type: 'rolling', days: row.window_days! } : { type: 'calendar-month' }

export function toSloView(row: SloRow): SloView {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    subject: row.monitor_id
      ? { kind: 'monitor', id: row.monitor_id, name: row.subject_name ?? '' }
      : { kind: 'group', id: row.group_id!, name: row.subject_name ?? '' },
    objective: Number(row.objective),
    window: windowOf(row),
    burnAlerts: row.burn_alerts,
    burning: row.burning,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** The SLO if it belongs to one of `organizationIds`; another organization's answers 404. */
export async function findSlo(sql: Sql, organizationIds: string[], id: string): Promise<SloRow> {
  const { rows } = await sql.query<SloRow>(`${SLO_SELECT} WHERE s.id = $1 AND s.organization_id = ANY($2)`, [
    id,
    organizationIds,
  ])
  if (!rows[0]) throw notFound('SLO')
  return rows[0]
}

/**
 * Checks the subject exists in the organization. Only probe-checked kinds qualify: a heartbeat's
 * misses live in its own table, not in the check results an SLO is computed from.
 */
export async function checkSubject(sql: Sql, organizationId: string, subject: { kind: string; id: string }) {
  if (subject.kind === 'group') {
    const { rows } = await sql.query('SELECT 1 FROM monitoring.monitor_groups WHERE id = $1 AND organization_id = $2', [
      subject.id,
      organizationId,
    ])
    if (rows.length === 0) throw new GuardError('VALIDATION_ERROR', 'subject.id: no such group')
    return
  }
  const { rows } = await sql.query<{ kind: SubjectKind }>(
    'SELECT kind FROM monitoring.monitors WHERE id = $1 AND organization_id = $2',
    [subject.id, organizationId],
  )
  if (!rows[0]) throw new GuardError('VALIDATION_ERROR', 'subject.id: no such monitor')
  if (monitorKinds[rows[0].kind].stateSource !== 'probe') {
    const covered = PROBE_KINDS.map((kind) => monitorKinds[kind].plural).join(', ')
    throw new GuardError(
      'VALIDATION_ERROR',
      `subject.id: SLOs cover ${covered}, not ${monitorKinds[rows[0].kind].plural}`,
    )
  }
}

export const nameTaken = (error: unknown) =>
  (error as { code?: string }).code === '23505'
    ? new GuardError('CONFLICT', 'The organization already has an SLO with that name')
    : error
