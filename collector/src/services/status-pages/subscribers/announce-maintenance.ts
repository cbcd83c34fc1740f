import type { CollectorContext } from '../../../context.ts'
import { currentOrNextOccurrence } from '../../maintenance-windows/schemas.ts'
import { readComponents } from '../find.ts'
import type { Locale } from '../i18n/locales.ts'
import { pageText } from '../i18n/page-text.ts'
import { queueForSubscribers } from './queue.ts'

interface WindowRow {
  id: string
  page_id: string
  organization_id: string
  page_name: string
  slug: string
  notice_hours: number
  locale: Locale
  timezone: string
  title: string
  monitor_id: string | null
  starts_at: Date
  ends_at: Date
  recurrence: 'none' | 'daily' | 'weekly'
  until: Date | null
}

/**
 * Tells subscribers of each public page of a maintenance window (of the organization, or of a
 * monitor on the page) once its next occurrence starts within the page's notice hours: each
 * occurrence once per page (a row in status_page_maintenance_notices, taken in the same
 * transaction as the queued messages), so replicas and restarts never announce one twice.
 */
export async function announceMaintenance({ ctx, input = {} }: { ctx: CollectorContext; input?: { now?: number } }) {
  const now = input.now ?? Date.now()
  const { rows } = await ctx.sql.query<WindowRow>(
    `SELECT w.id, p.id AS page_id, p.organization_id, p.name AS page_name, p.slug,
            p.maintenance_notice_hours AS notice_hours, p.locale, p.timezone, w.title, w.monitor_id, w.starts_at, w.ends_at, w.recurrence, w.until
       FROM monitoring.status_pages p
       JOIN monitoring.maintenance_windows w ON w.organization_id = p.organization_id
      WHERE p.is_public
        AND (w.monitor_id IS NULL OR EXISTS (SELECT 1 FROM monitoring.status_page_components c
                                              WHERE c.page_id = p.id AND c.subject_id = w.monitor_id))
        AND (w.ends_at > $1 OR (w.recurrence <> 'none' AND (w.until IS NULL OR w.until > $1)))
        AND EXISTS (SELECT 1 FROM monitoring.status_page_subscribers s WHERE s.page_id = p.id AND s.confirmed_at IS NOT NULL)`,
    [new Date(now)],
  )
  let announced = 0
  for (const row of rows) {
    const occurrence = currentOrNextOccurrence(
      {
        startsAt: row.starts_at.getTime(),
        endsAt: row.ends_at.getTime(),
        recurrence: row.recurrence,
        until: row.until?.getTime() ?? null,
      },
      now,
    )
    if (!occurrence || occurrence.ongoing || occurrence.startsAt - now > row.notice_hours * 3_600_000) continue
    const startsAt = new Date(occurrence.startsAt).toISOString()
    const endsAt = new Date(occurrence.endsAt).toISOString()
    const text = pageText(row.locale)
    const queued = await ctx.sql.transaction(async (tx) => {
      const { rows: claimed } = await tx.query(
        `INSERT INTO monitoring.status_page_maintenance_notices (page_id, window_id, starts_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING page_id`,
        [row.page_id, row.id, startsAt],
      )
      if (claimed.length === 0) return 0
      const components = await readComponents(tx, { id: row.page_id, organization_id: row.organization_id })
      const affected = row.monitor_id
        ? components.filter((component) => component.subjectId === row.monitor_id)
        : components
      return queueForSubscribers(
        tx,
        ctx.env,
        { id: row.page_id, organizationId: row.organization_id },
        affected.map((component) => component.id),
        `maintenance:${row.page_id}:${row.id}:${startsAt}`,
        {
          type: 'maintenance.scheduled',
          pageName: row.page_name,
          slug: row.slug,
          title: row.title,
          text: text.text('mail.maintenance', {
            start: text.dateTime(startsAt, row.timezone),
            end: text.dateTime(endsAt, row.timezone),
          }),
          status: 'scheduled',
          occurredAt: new Date(now).toISOString(),
          components: affected.map((component) => component.displayName),
          startsAt,
          endsAt,
          locale: row.locale,
        },
      )
    })
    announced += queued
  }
  if (announced > 0) ctx.wake.dispatchEvent(new Event('deliveries'))
  return announced
}
