import type { Sql } from '@guard/shared'
import { z } from 'zod'
import { getOrganization, type OrganizationView } from './view.ts'

export const organizationRename = z.strictObject({ name: z.string().trim().min(1).max(200) })

export async function renameOrganization(
  sql: Sql,
  input: { organization: string; changes: z.input<typeof organizationRename> },
): Promise<OrganizationView> {
  const { name } = organizationRename.parse(input.changes)
  const organization = await getOrganization(sql, input.organization)
  await sql.query('UPDATE identity.organizations SET name = $2 WHERE id = $1', [organization.id, name])
  return getOrganization(sql, organization.id)
}
