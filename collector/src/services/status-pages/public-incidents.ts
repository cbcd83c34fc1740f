import { createHash } from 'node:crypto'
import type { ErrorKind, IncidentCause, Sql } from '@guard/shared'
import type { Locale } from './i18n/locales.ts'
import { type MessageId, type PageText, pageText } from './i18n/page-text.ts'
import { publicReason, reasonText } from './public-reason.ts'
import type { PublicStatusPage, StatusPageComponent } from './schemas.ts'

export type PublicIncident = PublicStatusPage['incidents']['active'][number]
export type AutomaticIncidents = 'publish' | 'draft'

/** What a page's incidents are read from: its organization, its components and its publishing setting. */
export interface IncidentSource {
  organizationId: string
  components: StatusPageComponent[]
  automaticIncidents: AutomaticIncidents
  /** The page's language: derived wording is in it. */
  locale: Locale
}

/** Which of the page's incidents: current (active or resolved lately), started in a range, one by key, or a slice of all. */
export type IncidentSelection =
  | { recentDays: number }
  | { from: Date; to: Date }
  | { key: string }
  | { offset: number; limit: number }

/** Visitor-facing wording of automatic incidents, derived from their cause: the stored text is internal. */
const WORDING = {
  title: {
    down: 'auto.down',
    certificate: 'auto.certificate',
    registration: 'auto.registration',
    'device-offline': 'auto.deviceOffline',
    'device-health': 'auto.degraded',
    slo: 'auto.degraded',
    manual: 'auto.manual',
  },
  trouble: {
    down: null,
    certificate: 'trouble.certificate',
    registration: 'trouble.registration',
    'device-offline': 'trouble.deviceOffline',
    'device-health': 'trouble.deviceHealth',
    slo: 'trouble.slo',
    manual: 'trouble.manual',
  },
  recovered: {
    down: 'recovered.down',
    certificate: 'recovered.certificate',
    registration: 'recovered.registration',
    'device-offline': 'recovered.deviceOffline',
    'device-health': 'recovered.deviceHealth',
    slo: 'recovered.slo',
    manual: 'recovered.manual',
  },
} satisfies Record<string, Record<IncidentCause, MessageId | null>>

/**
 * The permanent public address of an incident: a hash of its id, so the page carries no ids and an
 * incident keeps its address (and its feed entry its id) across title and status changes.
 */
export const incidentKey = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 22)
const KEY_SQL = `left(translate(encode(sha256(convert_to(i.id, 'UTF8')), 'base64'), '+/', '-_'), 22)`

interface IncidentRow {
  id: string
  title: string
  public_title: string | null
  cause: string
  status: string
  severity: string
  impact: string
  monitor_id: string | null
  affected: string[]
  detected_at: Date
  resolved_at: Date | null
}

export interface PublicUpdateRow {
  status: string
  message: string
  automatic: boolean
  error_kind: ErrorKind | null
  status_code: number | null
  public_message: string | null
}
interface UpdateRow extends PublicUpdateRow {
  incident_id: string
  created_at: Date
}

const asCause = (cause: string): IncidentCause => (cause in WORDING.title ? (cause as IncidentCause) : 'manual')

/** An automatic incident's public title: what happened, to the page's own names for its components. */
function publicTitle(row: IncidentRow, names: string[], text: PageText): string {
  if (row.public_title) return row.public_title
  if (row.cause === 'manual') return row.title
  const title = text.text(WORDING.title[asCause(row.cause)])
  return names.length
    ? text.text('auto.titleOf', { title, components: text.list(names) })
    : text.text('auto.noComponent')
}

/** An update as visitors read it: the operator's public wording, else what it says when written by a person, else derived. */
export function publicUpdateMessage(cause: string, update: PublicUpdateRow, text: PageText): string {
  if (update.public_message) return update.public_message
  if (!update.automatic) return update.message
  const kind = asCause(cause)
  if (update.status === 'resolved') return text.text(WORDING.recovered[kind])
  const trouble = WORDING.trouble[kind]
  if (trouble) return text.text(trouble)
  return text.text('auto.detected', { reason: reasonText(publicReason(update.error_kind, update.status_code), text) })
}

function where(selection: IncidentSelection, next: number): { sql: string; values: unknown[]; limit: string } {
  if ('recentDays' in selection)
    return {
      sql: `(i.resolved_at IS NULL OR i.resolved_at > now() - make_interval(days => $${next}))`,
      values: [selection.recentDays],
      limit: 'LIMIT 50',
    }
  if ('from' in selection)
    return {
      sql: `i.detected_at >= $${next} AND i.detected_at < $${next + 1}`,
      values: [selection.from, selection.to],
      limit: 'LIMIT 200',
    }
  if ('key' in selection) return { sql: `${KEY_SQL} = $${next}`, values: [selection.key], limit: 'LIMIT 1' }
  return { sql: 'true', values: [selection.offset, selection.limit], limit: `OFFSET $${next} LIMIT $${next + 1}` }
}

/** The clause choosing the page's incidents: its organization, touching its components, published. */
export const PAGE_INCIDENTS = `i.organization_id = $1
  AND (i.monitor_id = ANY($2) OR i.affected_domains && $2 OR i.affected_services && $2 OR i.affected_devices && $2)
  AND (i.cause = 'manual' OR $3::text = 'publish' OR i.published_at IS NOT NULL)`
export const pageIncidentValues = (source: IncidentSource) => [
  source.organizationId,
  source.components.map((component) => component.subjectId),
  source.automaticIncidents,
]

/**
 * A page's incidents as visitors see them, newest first: public title and public updates (the
 * operator's wording, or wording derived from the cause and the failure's kind, never the probe's
 * text), page component names, no comments and no ids. On a page holding automatic incidents as
 * drafts, those show once published.
 */
export async function readPublicIncidents(
  sql: Sql,
  source: IncidentSource,
  selection: IncidentSelection,
): Promise<PublicIncident[]> {
  if (source.components.length === 0) return []
  const clause = where(selection, 4)
  const { rows } = await sql.query<IncidentRow>(
    `SELECT i.id, i.title, i.public_title, i.cause, i.status, i.severity, i.impact, i.monitor_id,
            i.affected_domains || i.affected_services || i.affected_devices AS affected, i.detected_at, i.resolved_at
       FROM monitoring.incidents i
      WHERE ${PAGE_INCIDENTS} AND ${clause.sql}
      ORDER BY i.detected_at DESC, i.id DESC ${clause.limit}`,
    [...pageIncidentValues(source), ...clause.values],
  )
  if (rows.length === 0) return []
  const updates = await sql.query<UpdateRow>(
    `SELECT incident_id, status, message, automatic, error_kind, status_code, public_message, created_at
       FROM monitoring.incident_updates
      WHERE incident_id = ANY($1) AND organization_id = $2 ORDER BY created_at DESC, id DESC`,
    [rows.map((row) => row.id), source.organizationId],
  )
  const names = new Map(source.components.map((component) => [component.subjectId, component.displayName]))
  const text = pageText(source.locale)
  return rows.map((row): PublicIncident => {
    const touched = [
      ...new Set([row.monitor_id, ...row.affected].flatMap((id) => (id && names.has(id) ? [names.get(id)!] : []))),
    ]
    return {
      key: incidentKey(row.id),
      title: publicTitle(row, touched, text),
      status: row.status,
      severity: row.severity,
      impact: row.impact,
      startedAt: row.detected_at.toISOString(),
      resolvedAt: row.resolved_at?.toISOString() ?? null,
      components: touched,
      updates: updates.rows
        .filter((update) => update.incident_id === row.id)
        .map((update) => ({
          status: update.status,
          message: publicUpdateMessage(row.cause, update, text),
          createdAt: update.created_at.toISOString(),
        })),
    }
  })
}
