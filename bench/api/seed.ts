import type { TimeSeriesStore } from '@guard/shared'

const HOUR = 3_600_000
const MINUTE = 60_000
const LOCATIONS = ['fra', 'iad', 'sin']
const DOMAINS_PER_INSERT = 10

/**
 * One result per minute per domain and location over `days`, generated inside ClickHouse. Raw rows
 * (which feed both rollups through their views) cover the last 24 whole hours; older minutes go
 * straight into the per-minute rollup (up to 7 days, what the minute table answers) and older hours
 * into the per-hour rollup, with the same figures the views would have produced from raw rows. The
 * reads this bench measures see the same rows as with 30 days of raw results, at a fraction of the
 * seeding time (30 days x 1,000 domains through the views took about 20 minutes). With `outages`, a
 * fifth of the domains are also down from every location for 6 minutes every 8 hours of raw results,
 * so that SLOs read over them have bad minutes to count.
 */
export async function seedResults(
  timeseries: TimeSeriesStore,
  {
    ids,
    organizationId,
    days,
    outages = false,
  }: { ids: string[]; organizationId: string; days: number; outages?: boolean },
): Promise<{ rawRows: number; minuteRows: number; hourRows: number }> {
  const now = Date.now()
  const rawStart = Math.floor((now - 24 * HOUR) / HOUR) * HOUR
  const rawMinutes = Math.floor((now - rawStart) / MINUTE)
  const seedStart = Math.floor((now - days * 24 * HOUR) / HOUR) * HOUR
  const minuteStart = Math.max(seedStart, rawStart - 6 * 24 * HOUR)
  const olderMinutes = Math.max(0, (rawStart - minuteStart) / MINUTE)
  const olderHours = Math.max(0, (rawStart - seedStart) / HOUR)
  const counts = { rawRows: 0, minuteRows: 0, hourRows: 0 }
  for (let offset = 0; offset < ids.length; offset += DOMAINS_PER_INSERT) {
    const chunk = ids.slice(offset, offset + DOMAINS_PER_INSERT)
    const series = (perDomain: number) =>
      `SELECT number,
              {ids:Array(String)}[intDiv(number, ${3 * perDomain}) + 1] AS m,
              {locations:Array(String)}[intDiv(number % ${3 * perDomain}, ${perDomain}) + 1] AS l,
              number % ${perDomain} AS step
         FROM numbers(${chunk.length * 3 * perDomain})`
    const params = { org: organizationId, ids: chunk, locations: LOCATIONS }
    await timeseries.client.command({
      query: `INSERT INTO check_results
                (id, organization_id, monitor_id, location, kind, status, started_at, response_time_ms, status_code, error, cert_issuer, cert_subject)
              SELECT concat(m, '-', l, '-', toString(step)), {org:String}, m, l, 'http',
                     if(cityHash64(m, l, step) % 100 = 0${outages ? ' OR (cityHash64(m) % 5 = 0 AND step % 480 < 6)' : ''}, 'down', 'up'),
                     fromUnixTimestamp64Milli(toInt64(${rawStart} + step * ${MINUTE})),
                     50 + cityHash64(m, l, step) % 300, 200, '', '', ''
                FROM (${series(rawMinutes)})`,
      query_params: params,
    })
    counts.rawRows += chunk.length * 3 * rawMinutes
    if (olderMinutes > 0) {
      await timeseries.client.command({
        query: `INSERT INTO check_results_1m
                SELECT {org:String}, m, l, toDateTime(intDiv(${minuteStart} + step * ${MINUTE}, 1000), 'UTC'), 1,
                       cityHash64(m, l, step) % 100 = 0, rt, rt, rt,
                       arrayReduce('quantilesTDigestState(0.5, 0.95, 0.99)', [rt])
                  FROM (SELECT m, l, step, toFloat64(50 + cityHash64(m, l, step) % 300) AS rt FROM (${series(olderMinutes)}))`,
        query_params: params,
      })
      counts.minuteRows += chunk.length * 3 * olderMinutes
    }
    if (olderHours > 0) {
      await timeseries.client.command({
        query: `INSERT INTO check_results_1h
                SELECT {org:String}, m, l, toDateTime(intDiv(${seedStart} + step * ${HOUR}, 1000), 'UTC'), 60,
                       arrayCount(x -> x % 100 = 0, hashes), arraySum(rts), arrayMin(rts), arrayMax(rts),
                       arrayReduce('quantilesTDigestState(0.5, 0.95, 0.99)', rts)
                  FROM (SELECT m, l, step, hashes, arrayMap(x -> toFloat64(50 + x % 300), hashes) AS rts
                          FROM (SELECT m, l, step, arrayMap(i -> cityHash64(m, l, step, i), range(60)) AS hashes
                                  FROM (${series(olderHours)})))`,
        query_params: params,
      })
      counts.hourRows += chunk.length * 3 * olderHours
    }
  }
  return counts
}
