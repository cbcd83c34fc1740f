import { notFound, type Sql } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import type { StatusPageAccessView } from './schemas.ts'

export interface AccessRow {
  id: string
  organization_id: string
  access_mode: StatusPageAccessView['mode']
  password_hash: string | null
  ip_allow_list: string[]
  custom_domain: string | null
}

export const ACCESS_COLUMNS = 'id, organization_id, access_mode, password_hash, ip_allow_list, custom_domain'

/** The access columns of a page of one of the caller's organizations; anything else is "not found". */
export async function findAccessRow(sql: Sql, caller: Caller, id: string): Promise<AccessRow> {
  const { rows } = await sql.query<AccessRow>(
    `SELECT ${ACCESS_COLUMNS} FROM monitoring.status_pages WHERE id = $1 AND organization_id = ANY($2)`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Status page')
  return rows[0]
}

export const toAccessView = (row: AccessRow): StatusPageAccessView => ({
  mode: row.access_mode,
  passwordSet: row.password_hash !== null,
  allowList: row.ip_allow_list,
  customDomain: row.custom_domain,
})

/** Who may see the page and where it answers; the password itself never leaves the database. */
export async function getStatusPageAccess({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<StatusPageAccessView> {
  return toAccessView(await findAccessRow(ctx.sql, caller, input.id))
}
