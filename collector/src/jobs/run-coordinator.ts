import { hostname } from 'node:os'
import type { Logger, Sql } from '@guard/shared'

/**
 * node-cron's run coordinator over PostgreSQL: node-cron names each run `<task>:<slot time>`, and
 * the replica whose INSERT of that name succeeds runs it; every other replica skips that slot.
 * Claims outlive their lease by a day, then the next claim sweeps them.
 *
 * With PostgreSQL away no replica can claim, so the slot is skipped. node-cron would skip it too
 * on a throw, but print a stack to stderr at every tick, outside the process' log; here the outage
 * is logged once when it starts and once when claims work again.
 */
export function postgresRunCoordinator(sql: Sql, log: Logger, holder = `${hostname()}:${process.pid}`) {
  let failing = false
  return {
    async shouldRun(key: string, ttlMs: number): Promise<boolean> {
      try {
        await sql.query("DELETE FROM monitoring.job_leases WHERE expires_at < now() - interval '1 day'")
        const { rows } = await sql.query(
          `INSERT INTO monitoring.job_leases (name, holder, expires_at)
           VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
           ON CONFLICT (name) DO NOTHING RETURNING name`,
          [key, holder, ttlMs],
        )
        if (failing) log.info({ run: key }, 'scheduled jobs can claim their runs again')
        failing = false
        return rows.length === 1
      } catch (error) {
        if (!failing)
          log.warn({ err: error, run: key }, 'scheduled jobs cannot claim their runs; skipping until they can')
        failing = true
        return false
      }
    },
  }
}
