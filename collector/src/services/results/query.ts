import type { TimeSeriesStore } from '@guard/shared'

/** Runs a ClickHouse SELECT with bound parameters against the store's database. */
export async function selectRows<Row>(
  timeseries: TimeSeriesStore,
  query: string,
  params: Record<string, unknown>,
): Promise<Row[]> {
  const result = await timeseries.client.query({
    query,
    query_params: params,
    format: 'JSONEachRow',
  })
  return result.json<Row>()
}

/** ClickHouse returns 64-bit integers as strings in JSON; timestamps are selected as epoch ms. */
export const isoFromMillis = (millis: string | number): string => new Date(Number(millis)).toISOString()
