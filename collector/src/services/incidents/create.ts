import { GuardError, newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { publishStagedEvents } from '../events/publish.ts'
import { addIncidentUpdate, stageIncidentEvent } from './events.ts'
import { authorOf, INCIDENT_COLUMNS, type IncidentRow, toIncidentView } from './find.ts'
import { type CreateIncidentInput, createIncidentInput, type IncidentView } from './schemas.ts'

/** A manual incident; the domains and services it names must be the organization's own. */
export async function createIncident(
  ctx: CollectorContext,
  caller: Caller,
  input: CreateIncidentInput,
  requestedOrganization?: string,
): Promise<IncidentView> {
  const parsed = createIncidentInput.parse(input)
  const organizationId = organizationScope(caller, requestedOrganization)
  for (const [table, field, values] of [
    ['domains', 'affectedDomains', parsed.affectedDomains],
    ['services', 'affectedServices', parsed.affectedServices],
  ] as const) {
    if (values.length === 0) continue
    const { rows } = await ctx.sql.query<{ id: string }>(
      `SELECT id FROM monitoring.${table} WHERE id = ANY($1) AND organization_id = $2`,
      [values, organizationId],
    )
    const known = new Set(rows.map((row) => row.id))
    const unknown = values.filter((value) => !known.has(value))
    if (unknown.length > 0)
      throw new GuardError(
        'VALIDATION_ERROR',
        `${field}: ${unknown.length} of the ids are not ${table} of the organization`,
      )
  }
  const author = authorOf(caller)
  const { row, staged } = await ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<IncidentRow>(
      `INSERT INTO monitoring.incidents (id, organization_id, title, description, status, severity, impact, cause,
         affected_services, affected_domains, affected_devices, detected_at, created_by,
         acknowledged_at, acknowledged_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'manual', $8, $9, $10, now(), $11,
         CASE WHEN $5 = 'open' THEN NULL ELSE now() END, CASE WHEN $5 = 'open' THEN NULL ELSE $11 END)
       RETURNING ${INCIDENT_COLUMNS}`,
      [
        newId(),
        organizationId,
        parsed.title,
        parsed.description,
        parsed.status,
        parsed.severity,
        parsed.impact,
        [...new Set(parsed.affectedServices)],
        [...new Set(parsed.affectedDomains)],
        [...new Set(parsed.affectedDevices)],
        author,
      ],
    )
    const row = rows[0]!
    const message = parsed.description || `Incident reported: ${parsed.title}`
    // Words Guard wrote for the person are Guard's (automatic): pages show them in their own language.
    await addIncidentUpdate(tx, row, { message, status: row.status, automatic: !parsed.description, author })
    return { row, staged: await stageIncidentEvent(tx, 'incident.opened', row, { message, automatic: false }) }
  })
  await publishStagedEvents(ctx, { ids: staged }).catch(() => undefined)
  return toIncidentView(row)
}
