import type { UnmappedItem } from '../import-result.ts'
import type { GatusAlert } from './gatus-schema.ts'
import type { MappedAlerting } from './map-alerting.ts'

/** Gatus's default `failure-threshold` (README "Alerting"). */
const GATUS_FAILURE_THRESHOLD = 3

/**
 * An endpoint's alerts → the channels its monitor notifies and its failureThreshold. Guard tells
 * every channel of a monitor when it goes down, so the lowest threshold of the alerts is the
 * monitor's; a channel alerted later is escalation, which is a notification route's business.
 */
export function mapEndpointAlerts(
  alerts: GatusAlert[],
  at: { source: string; item: string },
  alerting: MappedAlerting,
  unmapped: UnmappedItem[],
): { channels?: string[]; failureThreshold?: number } {
  const channels: string[] = []
  const thresholds: Array<{ index: number; threshold: number }> = []
  for (const [index, alert] of alerts.entries()) {
    const item = `${at.item}.alerts[${index}]`
    const merged = { ...alerting.defaultAlertOf.get(alert.type), ...alert }
    if (merged.enabled === false) continue
    if (!alerting.configured.has(alert.type)) {
      unmapped.push({
        source: at.source,
        item,
        reason: `alerting.${alert.type} is not configured, so Gatus ignores this alert`,
      })
      continue
    }
    const channel = alerting.channelOf.get(alert.type)
    if (channel === undefined) continue
    if (!channels.includes(channel)) channels.push(channel)
    thresholds.push({ index, threshold: merged['failure-threshold'] ?? GATUS_FAILURE_THRESHOLD })
    if (merged['success-threshold'] !== undefined) {
      unmapped.push({
        source: at.source,
        item: `${item}.success-threshold`,
        reason: 'Guard resolves an incident on the first check that is up again',
      })
    }
    const reminder = merged['minimum-reminder-interval']
    if (reminder !== undefined && reminder !== '0' && reminder !== '') {
      unmapped.push({
        source: at.source,
        item: `${item}.minimum-reminder-interval`,
        reason: 'reminders are a setting of a notification route (repeat every …), not of a monitor',
      })
    }
    if (merged['provider-override'] !== undefined) {
      unmapped.push({
        source: at.source,
        item: `${item}.provider-override`,
        reason: 'a destination for this endpoint alone: add a channel and a notification route for its monitor',
      })
    }
  }
  if (thresholds.length === 0) return {}
  const failureThreshold = Math.min(...thresholds.map(({ threshold }) => threshold))
  for (const { index, threshold } of thresholds) {
    if (threshold === failureThreshold) continue
    unmapped.push({
      source: at.source,
      item: `${at.item}.alerts[${index}].failure-threshold`,
      reason: `Guard notifies every channel of the monitor after ${failureThreshold} failed checks; alerting after ${threshold} is an escalation step of a notification route`,
    })
  }
  return { channels, failureThreshold: Math.min(Math.max(failureThreshold, 1), 100) }
}
