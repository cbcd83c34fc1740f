import type { Sql } from '@guard/shared'
import { hasTags } from '../../tags/match.ts'
import type { AlertKind } from '../providers/provider.ts'
import type { RouteSelector } from './schemas.ts'

export interface RouteRow {
  id: string
  organization_id: string
  name: string
  position: number
  is_default: boolean
  selector: RouteSelector
  channel_ids: string[]
  escalation_policy_id: string | null
  reminder_minutes: number | null
  continue_matching: boolean
  enabled: boolean
  created_at: Date
  updated_at: Date
}

/** What routes look at: the incident's monitor, its tags, and the moment. */
export interface RoutedIncident {
  monitorId?: string | undefined
  monitorKind?: string | undefined
  tags: string[]
  severity: string
  cause: string
  kind: AlertKind
}

const anyOf = <T>(wanted: readonly T[] | undefined, value: T | undefined) =>
  wanted === undefined || wanted.length === 0 || (value !== undefined && wanted.includes(value))

export function selectorMatches(selector: RouteSelector, incident: RoutedIncident): boolean {
  return (
    anyOf(selector.monitorIds, incident.monitorId) &&
    anyOf(selector.monitorKinds as string[] | undefined, incident.monitorKind) &&
    anyOf(selector.severities as string[] | undefined, incident.severity) &&
    anyOf(selector.causes as string[] | undefined, incident.cause) &&
    anyOf(selector.events as string[] | undefined, incident.kind) &&
    hasTags(incident.tags, selector.tags ?? [])
  )
}

/**
 * The routes an incident takes, Alertmanager-style: in ascending position, the first match wins
 * unless it says to continue; the default route takes what no other route did.
 */
export function chooseRoutes(routes: RouteRow[], incident: RoutedIncident): RouteRow[] {
  const chosen: RouteRow[] = []
  for (const route of [...routes].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))) {
    if (route.is_default || !route.enabled || !selectorMatches(route.selector, incident)) continue
    chosen.push(route)
    if (!route.continue_matching) return chosen
  }
  if (chosen.length > 0) return chosen
  const fallback = routes.find((route) => route.is_default && route.enabled)
  return fallback ? [fallback] : []
}

export const ROUTE_COLUMNS = `id, organization_id, name, position, is_default, selector, channel_ids, escalation_policy_id,
  reminder_minutes, continue_matching, enabled, created_at, updated_at`

export async function routesOf(tx: Sql, organizationId: string): Promise<RouteRow[]> {
  const { rows } = await tx.query<RouteRow>(
    `SELECT ${ROUTE_COLUMNS} FROM monitoring.notification_routes WHERE organization_id = $1`,
    [organizationId],
  )
  return rows
}

/** The tags of the incident's monitor or device; none when it has no subject. */
export async function subjectTags(tx: Sql, monitorId: string | undefined, monitorKind: string | undefined) {
  if (!monitorId) return []
  const { rows } = await tx.query<{ tags: string[] }>(
    monitorKind === 'device'
      ? 'SELECT tags FROM monitoring.devices WHERE id = $1'
      : 'SELECT tags FROM monitoring.monitors WHERE id = $1',
    [monitorId],
  )
  return rows[0]?.tags ?? []
}
