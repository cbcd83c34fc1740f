import { GuardError, notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { Locale } from './i18n/locales.ts'
import type { ComponentKind, StatusPageComponent, StatusPageDetail, StatusPageView } from './schemas.ts'

export interface StatusPageRow {
  id: string
  organization_id: string
  name: string
  slug: string
  description: string
  is_public: boolean
  theme: 'auto' | 'light' | 'dark'
  accent_color: string | null
  logo_url: string | null
  links: Array<{ label: string; url: string }>
  timezone: string
  locale: Locale
  automatic_incidents: 'publish' | 'draft'
  component_count: number
  created_at: Date
  updated_at: Date
}

const SELECT_PAGE = `SELECT p.*, (SELECT count(*)::int FROM monitoring.status_page_components c WHERE c.page_id = p.id)
                            AS component_count
                       FROM monitoring.status_pages p`

/** A page of one of the caller's organizations; anything else is "not found", never "forbidden". */
export async function findStatusPage(sql: Sql, caller: Caller, id: string): Promise<StatusPageRow> {
  const { rows } = await sql.query<StatusPageRow>(`${SELECT_PAGE} WHERE p.id = $1 AND p.organization_id = ANY($2)`, [
    id,
    caller.organizationIds,
  ])
  if (!rows[0]) throw notFound('Status page')
  return rows[0]
}

export async function listStatusPageRows(sql: Sql, organizationId: string): Promise<StatusPageRow[]> {
  const { rows } = await sql.query<StatusPageRow>(
    `${SELECT_PAGE} WHERE p.organization_id = $1 ORDER BY p.created_at, p.id`,
    [organizationId],
  )
  return rows
}

interface ComponentRow {
  id: string
  kind: ComponentKind
  subject_id: string
  display_name: string
  position: number
}

/** The page's components whose monitor, device or group still exists in the page's organization. */
export async function readComponents(sql: Sql, page: Pick<StatusPageRow, 'id' | 'organization_id'>) {
  const { rows } = await sql.query<ComponentRow>(
    `SELECT c.id, c.kind, c.subject_id, c.display_name, c.position
       FROM monitoring.status_page_components c
      WHERE c.page_id = $1
        AND (EXISTS (SELECT 1 FROM monitoring.monitors m
                      WHERE m.id = c.subject_id AND m.kind = c.kind AND m.organization_id = $2)
          OR EXISTS (SELECT 1 FROM monitoring.devices d
                      WHERE c.kind = 'device' AND d.id = c.subject_id AND d.organization_id = $2)
          OR EXISTS (SELECT 1 FROM monitoring.monitor_groups g
                      WHERE c.kind = 'group' AND g.id = c.subject_id AND g.organization_id = $2))
      ORDER BY c.position, c.created_at`,
    [page.id, page.organization_id],
  )
  return rows.map(
    (row): StatusPageComponent => ({
      id: row.id,
      kind: row.kind,
      subjectId: row.subject_id,
      displayName: row.display_name,
      position: row.position,
    }),
  )
}

export const toStatusPageView = (row: StatusPageRow): StatusPageView => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  isPublic: row.is_public,
  theme: row.theme,
  accentColor: row.accent_color,
  logoUrl: row.logo_url,
  links: row.links,
  timezone: row.timezone,
  locale: row.locale,
  automaticIncidents: row.automatic_incidents,
  componentCount: row.component_count,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

export async function toStatusPageDetail(sql: Sql, row: StatusPageRow): Promise<StatusPageDetail> {
  const components = await readComponents(sql, row)
  return { ...toStatusPageView(row), componentCount: components.length, components }
}

/** A second page with the same slug is a clear 409, not a database error. */
export async function slugTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new GuardError('CONFLICT', 'A status page with this slug already exists')
    }
    throw error
  }
}
