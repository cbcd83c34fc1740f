import type { Stoppable } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { ACTIVITY_FEED, activityFeedHandlers } from '../services/activity/record.ts'
import { relayStagedEvents } from '../services/events/publish.ts'
import { republishUnprocessedEvents } from '../services/events/unprocessed.ts'
import { INCIDENT_ENGINE, incidentEngineHandlers } from '../services/incidents/engine.ts'
import { startDeliveryWorker } from '../services/notifications/deliver.ts'
import { NOTIFICATIONS, notificationHandlers } from '../services/notifications/dispatch.ts'
import { startEscalationWorker } from '../services/notifications/escalation/advance.ts'
import { scheduleWeeklyReports } from '../services/reports/weekly-email.ts'
import { STATUS_PAGE_SUBSCRIBERS, subscriberHandlers } from '../services/status-pages/subscribers/tell-incident.ts'
import { consumeEvents } from './consume-events.ts'

/**
 * Everything that reacts to events: the outbox relay, the durable consumers (incident
 * engine, notifications, activity feed, status page subscribers), the delivery and escalation workers and the weekly report schedule.
 * Every replica runs all of them; durables, leases and job_runs split the work.
 */
export async function startReactions(
  ctx: CollectorContext,
  options: { weeklyReports?: boolean } = {},
): Promise<Stoppable> {
  const republished = await republishUnprocessedEvents(ctx)
  if (republished > 0) ctx.log.info({ republished }, 'events not handled before the last stop published again')
  const parts: Stoppable[] = [
    relayStagedEvents(ctx),
    await consumeEvents(ctx, INCIDENT_ENGINE, incidentEngineHandlers(ctx)),
    await consumeEvents(ctx, NOTIFICATIONS, notificationHandlers(ctx)),
    await consumeEvents(ctx, ACTIVITY_FEED, activityFeedHandlers()),
    await consumeEvents(ctx, STATUS_PAGE_SUBSCRIBERS, subscriberHandlers(ctx)),
    startDeliveryWorker(ctx),
    startEscalationWorker(ctx),
  ]
  if (options.weeklyReports !== false) parts.push(scheduleWeeklyReports(ctx))
  return {
    async stop() {
      for (const part of parts.reverse()) await part.stop()
    },
  }
}
