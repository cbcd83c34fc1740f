import type { TimeSeriesStore } from '@guard/shared'
import type { CollectorEnv } from '../../env.ts'

/**
 * Applies the configured retention to each time-series table. Existing parts are left alone
 * (`materialize_ttl_after_modify = 0`): the new TTL takes effect as parts merge, so a start never
 * rewrites the whole table.
 */
export async function applyRetention(timeseries: TimeSeriesStore, env: CollectorEnv): Promise<void> {
  const tables: Array<[string, string, number]> = [
    ['check_results', 'toDateTime(started_at)', env.GUARD_RETENTION_RAW_DAYS],
    ['check_results_1m', 'bucket', env.GUARD_RETENTION_MINUTE_DAYS],
    ['check_results_1h', 'bucket', env.GUARD_RETENTION_HOUR_DAYS],
    ['device_metrics', 'toDateTime(timestamp)', env.GUARD_RETENTION_RAW_DAYS],
    ['device_metrics_1m', 'bucket', env.GUARD_RETENTION_MINUTE_DAYS],
  ]
  for (const [table, column, days] of tables) {
    await timeseries.client.command({
      query: `ALTER TABLE ${table} MODIFY TTL ${column} + INTERVAL ${Math.trunc(days)} DAY`,
      clickhouse_settings: { materialize_ttl_after_modify: 0 },
    })
  }
}
