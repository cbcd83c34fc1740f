import { hostname } from 'node:os'
import type { Sql } from '@guard/shared'

/**
 * node-cron's run coordinator over PostgreSQL: node-cron names each run `<task>:<slot time>`, and
 * the replica whose INSERT of that name succeeds runs it; every other replica skips that slot.
 * Claims outlive their lease by a day, then the next claim sweeps them.
 */
export function postgresRunCoordinator(sql: Sql, holder = `${hostname()}:${process.pid}`) {
  return {
    async shouldRun(key: string, ttlMs: number): Promise<boolean> {
      await sql.query("DELETE FROM monitoring.job_leases WHERE expires_at < now() - interval '1 day'")
      const { rows } = await sql.query(
        `INSERT INTO monitoring.job_leases (name, holder, expires_at)
         VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
         ON CONFLICT (name) DO NOTHING RETURNING name`,
        [key, holder, ttlMs],
      )
      return rows.length === 1
    },
  }
}
