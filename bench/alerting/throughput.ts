import type { Stoppable } from '@guard/shared'
import type { CollectorContext } from '../../collector/src/context.ts'
import { consumeEvents } from '../../collector/src/ingest/consume-events.ts'
import { ACTIVITY_FEED, activityFeedHandlers } from '../../collector/src/services/activity/record.ts'
import { publishStagedEvents, relayStagedEvents } from '../../collector/src/services/events/publish.ts'
import { INCIDENT_ENGINE, incidentEngineHandlers } from '../../collector/src/services/incidents/engine.ts'
import { applyResultsToState } from '../../collector/src/services/monitor-state/apply-results.ts'
import { startDeliveryWorker } from '../../collector/src/services/notifications/deliver.ts'
import { NOTIFICATIONS, notificationHandlers } from '../../collector/src/services/notifications/dispatch.ts'
import { type CapturedRequest, postAll, type startFakeReceiver } from './fake.ts'
import { createWebhookChannels, downResults, round, seedMonitors, waitFor } from './fixture.ts'

/** What one pass of the delivery worker claims and sends at once (runDueDeliveries' limit). */
const WORKER_PASS = 50

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

async function countDeliveries(ctx: CollectorContext, organizationId: string, status: string): Promise<number> {
  const { rows } = await ctx.sql.query<{ n: string }>(
    `SELECT count(*) AS n FROM monitoring.notification_deliveries
      WHERE organization_id = $1 AND channel_id IS NOT NULL AND status = $2`,
    [organizationId, status],
  )
  return Number(rows[0]?.n ?? 0)
}

/**
 * Part 1. `incidents` monitors of an organization with `channels` webhook channels on one route go
 * down; their incident.opened events are dispatched (every event consumer runs, as startReactions starts them) (route → one outbox row per channel) with the
 * delivery worker stopped, so the outbox fills: `queue`. Then the worker starts and the clock runs
 * until every row reads delivered: `drain`, the outbox's rate. The ceiling posts the bodies the
 * fake received, with the worker's concurrency, from a bare HTTP client.
 */
export async function outboxThroughput(
  ctx: CollectorContext,
  fake: Awaited<ReturnType<typeof startFakeReceiver>>,
  options: { organizationId: string; channels: number; incidents: number },
) {
  const { organizationId, channels, incidents } = options
  const expected = channels * incidents
  await createWebhookChannels(ctx, organizationId, fake.origin, '/outbox/', channels)
  const monitorIds = await seedMonitors(ctx, organizationId, incidents)

  const consumers: Stoppable[] = [
    relayStagedEvents(ctx),
    await consumeEvents(ctx, INCIDENT_ENGINE, incidentEngineHandlers(ctx)),
    await consumeEvents(ctx, NOTIFICATIONS, notificationHandlers(ctx)),
    await consumeEvents(ctx, ACTIVITY_FEED, activityFeedHandlers()),
  ]
  const queueStart = performance.now()
  const staged = await applyResultsToState(ctx.sql, downResults(organizationId, monitorIds))
  await publishStagedEvents(ctx, { ids: staged })
  await waitFor('the outbox to fill', async () => (await countDeliveries(ctx, organizationId, 'pending')) >= expected)
  const queueSeconds = (performance.now() - queueStart) / 1000

  const drainCpu = process.cpuUsage()
  const drainStart = performance.now()
  const worker = startDeliveryWorker(ctx)
  await waitFor(
    'the outbox to drain',
    async () => (await countDeliveries(ctx, organizationId, 'delivered')) >= expected,
  )
  const drainSeconds = (performance.now() - drainStart) / 1000
  const drainCpuMs = cpuMsSince(drainCpu)
  await worker.stop()
  for (const consumer of consumers.reverse()) await consumer.stop()
  const failed = await countDeliveries(ctx, organizationId, 'failed')

  // The same requests, byte for byte, to a path the fake does not keep.
  const replay: CapturedRequest[] = fake.captured.map((each) => ({
    ...each,
    path: each.path.replace('/outbox/', '/bare/'),
  }))
  const bareCpu = process.cpuUsage()
  const bareStart = performance.now()
  const bareOk = await postAll(fake.origin, replay, WORKER_PASS)
  const bareSeconds = (performance.now() - bareStart) / 1000
  const bareCpuMs = cpuMsSince(bareCpu)

  const deliveredPerSecond = expected / drainSeconds
  const barePerSecond = replay.length / bareSeconds
  return {
    channels,
    incidents,
    deliveries: expected,
    receivedByFake: fake.captured.length,
    failed,
    bodyBytes: round(replay.reduce((sum, each) => sum + Buffer.byteLength(each.body), 0) / Math.max(1, replay.length)),
    queueSeconds: round(queueSeconds),
    queuedPerSecond: round(expected / queueSeconds),
    drainSeconds: round(drainSeconds),
    deliveredPerSecond: round(deliveredPerSecond),
    bareClient: { concurrency: WORKER_PASS, requests: replay.length, ok: bareOk, perSecond: round(barePerSecond) },
    ratioToBareClient: round(deliveredPerSecond / barePerSecond),
    // The same comparison in CPU time (fake receiver included in both), which a busy machine disturbs less.
    cpuMsPerDelivery: round(drainCpuMs / expected),
    bareCpuMsPerRequest: round(bareCpuMs / replay.length),
    cpuRatioToBareClient: round(bareCpuMs / replay.length / (drainCpuMs / expected)),
  }
}
