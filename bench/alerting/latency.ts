import { encodeCheckResult, resultSubject } from '@guard/shared'
import type { CollectorContext } from '../../collector/src/context.ts'
import { consumeResults, type IngestStats } from '../../collector/src/ingest/consume-results.ts'
import { startReactions } from '../../collector/src/ingest/reactions.ts'
import type { startFakeReceiver } from './fake.ts'
import { createWebhookChannels, downResults, quantile, round, seedMonitors, waitFor } from './fixture.ts'

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? null }
}

/** When each monitor's down transition was decided: its monitor.down event, staged in that transaction. */
async function downTransitions(ctx: CollectorContext, monitorIds: Set<string>): Promise<Map<string, number>> {
  const { rows } = await ctx.sql.query<{ payload: string; created_at: Date }>(
    `SELECT payload, created_at FROM monitoring.event_outbox WHERE subject = 'events.monitor.down'`,
  )
  const at = new Map<string, number>()
  for (const row of rows) {
    const monitorId = (JSON.parse(row.payload) as { data: { monitorId: string } }).data.monitorId
    if (monitorIds.has(monitorId)) at.set(monitorId, new Date(row.created_at).getTime())
  }
  return at
}

/**
 * Per monitor, when its incident was opened and its first delivery queued: each the start of the
 * consumer's transaction that did it (PostgreSQL's now()), the same clock as the down transition.
 */
async function stagesOf(ctx: CollectorContext, organizationId: string) {
  const { rows } = await ctx.sql.query<{ monitor_id: string; opened: Date; queued: Date }>(
    `SELECT i.monitor_id, i.created_at AS opened, min(d.created_at) AS queued
       FROM monitoring.incidents i JOIN monitoring.notification_deliveries d ON d.incident_id = i.id
      WHERE i.organization_id = $1
      GROUP BY i.monitor_id, i.created_at`,
    [organizationId],
  )
  return new Map(
    rows.map((row) => [
      row.monitor_id,
      { opened: new Date(row.opened).getTime(), queued: new Date(row.queued).getTime() },
    ]),
  )
}

/**
 * Part 2. `monitors` monitors of an organization with `channels` webhook channels (the default
 * route) go down at once (or, with `stagger`, a few of them one after another, the usual case): their failing results are published on the bus and the collector runs as
 * shipped (ingest, state machine, incident engine, notifications, delivery and escalation workers).
 * For each monitor: from its down transition (the time of the transaction that staged monitor.down)
 * to the fake receiving its first alert; and from the results' publication, which adds the ingest.
 */
export async function downToFirstDelivery(
  ctx: CollectorContext,
  fake: Awaited<ReturnType<typeof startFakeReceiver>>,
  options: {
    organizationId: string
    monitors: number
    channels: number
    /** Instead of all at once: only this many go down, one every `staggerMs`, the rest stay up. */
    stagger?: { count: number; staggerMs: number }
  },
) {
  const { organizationId, monitors, channels, stagger } = options
  await createWebhookChannels(ctx, organizationId, fake.origin, '/latency/', channels)
  const seeded = await seedMonitors(ctx, organizationId, monitors)
  const monitorIds = stagger ? seeded.slice(0, stagger.count) : seeded
  const ingestStats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const ingest = await consumeResults(ctx, ingestStats)
  const reactions = await startReactions(ctx, { weeklyReports: false })
  const results = downResults(organizationId, monitorIds)
  const publishedAt = Date.now()
  const publishedOf = new Map<string, number>()
  const publish = (batch: typeof results) =>
    Promise.all(
      batch.map((result) => ctx.bus.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })),
    )
  if (stagger) {
    for (const monitorId of monitorIds) {
      publishedOf.set(monitorId, Date.now())
      await publish(results.filter((result) => result.monitorId === monitorId))
      await new Promise((resolve) => setTimeout(resolve, stagger.staggerMs))
    }
  } else {
    for (const monitorId of monitorIds) publishedOf.set(monitorId, publishedAt)
    await publish(results)
  }
  await waitFor('a first alert of every monitor', () => monitorIds.every((id) => fake.firstAlertAt.has(id)))
  const allSeconds = (Date.now() - publishedAt) / 1000
  await reactions.stop()
  await ingest.stop()

  const downAt = await downTransitions(ctx, new Set(monitorIds))
  const stages = await stagesOf(ctx, organizationId)
  const first = (id: string) => fake.firstAlertAt.get(id)!
  const since = (at: (id: string) => number) => summary(monitorIds.map((id) => at(id) - downAt.get(id)!))
  return {
    monitors,
    wentDown: monitorIds.length,
    ...(stagger ? { staggerMs: stagger.staggerMs } : {}),
    channels,
    resultsPublished: results.length,
    ingestBatches: ingestStats.batches,
    allFirstAlertsSeconds: round(allSeconds),
    fromDownTransitionMs: since(first),
    // Where that time goes: each stage's start, counted from the down transition.
    stagesFromDownTransitionMs: {
      incidentOpened: since((id) => stages.get(id)!.opened),
      deliveryQueued: since((id) => stages.get(id)!.queued),
      firstReceived: since(first),
    },
    fromResultsPublishedMs: summary(monitorIds.map((id) => first(id) - publishedOf.get(id)!)),
  }
}
