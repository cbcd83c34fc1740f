import type { Sql } from '@guard/shared'
import { type CreatedApiKey, createApiKey } from './create.ts'

const BOOTSTRAP_NAME = 'bootstrap'

/**
 * On the first start, creates the API key the operator uses before the full auth model exists.
 * Returns it only when it was created now, so it is shown exactly once.
 */
export async function ensureBootstrapApiKey(sql: Sql, organizationId: string): Promise<CreatedApiKey | undefined> {
  return sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('guard.bootstrap-api-key'))")
    const { rows } = await tx.query('SELECT 1 FROM monitoring.api_keys WHERE organization_id = $1 AND name = $2', [
      organizationId,
      BOOTSTRAP_NAME,
    ])
    if (rows.length > 0) return undefined
    return createApiKey(tx, { organizationId, name: BOOTSTRAP_NAME, permissions: ['*:*'] })
  })
}
