import type { Stoppable } from '@guard/shared'
import cron from 'node-cron'
import type { CollectorContext } from '../../context.ts'
import { consoleUrl } from '../notifications/console-url.ts'
import { channelsFor, enqueueDeliveries } from '../notifications/enqueue.ts'
import type { SettingsRow } from '../notifications/settings.ts'

const WEEK_MS = 7 * 86_400_000

/** ISO week of `at` (e.g. 2026-W48): the period a weekly run is recorded under. */
export function isoWeek(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
  const weekday = day.getUTCDay() || 7
  day.setUTCDate(day.getUTCDate() + 4 - weekday)
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1)
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7)
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`
}

interface Figures {
  domains: number
  services: number
  heartbeats: number
  opened: number
  resolved: number
  stillOpen: number
  critical: number
  downtimeSeconds: number
}

async function weekFigures(ctx: CollectorContext, organizationId: string, since: Date): Promise<Figures> {
  const { rows } = await ctx.sql.query<Record<keyof Figures, string | number | null>>(
    `SELECT (SELECT count(*) FROM monitoring.monitors WHERE organization_id = $1 AND kind = 'domain') AS domains,
            (SELECT count(*) FROM monitoring.monitors WHERE organization_id = $1 AND kind = 'service') AS services,
            (SELECT count(*) FROM monitoring.monitors WHERE organization_id = $1 AND kind = 'heartbeat') AS heartbeats,
            count(*) FILTER (WHERE detected_at >= $2) AS opened,
            count(*) FILTER (WHERE resolved_at >= $2) AS resolved,
            count(*) FILTER (WHERE resolved_at IS NULL) AS "stillOpen",
            count(*) FILTER (WHERE detected_at >= $2 AND severity = 'critical') AS critical,
            coalesce(sum(extract(epoch FROM coalesce(resolved_at, now()) - greatest(detected_at, $2)))
              FILTER (WHERE cause = 'down' AND coalesce(resolved_at, now()) > $2), 0)::float8 AS "downtimeSeconds"
       FROM monitoring.incidents WHERE organization_id = $1 AND (resolved_at IS NULL OR resolved_at >= $2)`,
    [organizationId, since],
  )
  const row = rows[0]!
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Math.round(Number(value ?? 0))]),
  ) as unknown as Figures
}

/**
 * Queues this week's report e-mail for every recipient who asked for it. The first replica to
 * record the week in job_runs sends it; the others find the row and do nothing.
 */
export async function sendWeeklyReports(ctx: CollectorContext, now = new Date()): Promise<number> {
  const period = isoWeek(now)
  const { rows: claimed } = await ctx.sql.query(
    `INSERT INTO monitoring.job_runs (job, period) VALUES ('weekly-report', $1) ON CONFLICT DO NOTHING RETURNING period`,
    [period],
  )
  if (claimed.length === 0) return 0
  const { rows: recipients } = await ctx.sql.query<SettingsRow>(
    `SELECT * FROM monitoring.notification_settings WHERE email_weekly_reports AND email_notifications AND email IS NOT NULL`,
  )
  const since = new Date(now.getTime() - WEEK_MS)
  const figures = new Map<string, Figures>()
  let queued = 0
  for (const recipient of recipients) {
    const channels = channelsFor(ctx.env, recipient, 'report')
    if (channels.length === 0) continue
    let week = figures.get(recipient.organization_id)
    if (!week) {
      week = await weekFigures(ctx, recipient.organization_id, since)
      figures.set(recipient.organization_id, week)
    }
    const text = [
      `Monitors: ${week.domains} domains, ${week.services} services, ${week.heartbeats} heartbeats.`,
      `Incidents this week: ${week.opened} opened (${week.critical} critical), ${week.resolved} resolved, ${week.stillOpen} still open.`,
      `Downtime: ${Math.round(week.downtimeSeconds / 60)} minutes in total.`,
    ].join(' ')
    queued += await ctx.sql.transaction((tx) =>
      enqueueDeliveries(
        tx,
        ctx.env,
        recipient,
        {
          kind: 'digest',
          severity: 'low',
          eventId: `report.weekly:${period}:${recipient.organization_id}`,
          eventType: 'report.weekly',
          occurredAt: now.toISOString(),
          organizationId: recipient.organization_id,
          title: `Weekly report ${period}`,
          text,
          link: consoleUrl(ctx.env, '/reports'),
          data: { period, ...week },
        },
        channels,
      ),
    )
  }
  if (queued > 0) ctx.wake.dispatchEvent(new Event('deliveries'))
  return queued
}

/** Runs sendWeeklyReports on GUARD_WEEKLY_REPORT_CRON (UTC) in every replica; job_runs keeps it to one. */
export function scheduleWeeklyReports(ctx: CollectorContext): Stoppable {
  const task = cron.schedule(
    ctx.env.GUARD_WEEKLY_REPORT_CRON,
    async () => {
      try {
        const queued = await sendWeeklyReports(ctx)
        if (queued > 0) ctx.log.info({ queued }, 'weekly reports queued')
      } catch (error) {
        ctx.log.error({ err: error }, 'weekly reports failed')
      }
    },
    { timezone: 'UTC', name: 'weekly-report' },
  )
  return {
    async stop() {
      await task.stop()
    },
  }
}
