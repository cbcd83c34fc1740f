import type { Sql } from '@guard/shared'
import { createSigningKey } from './create.ts'

/** Creates the first signing key when there is none; concurrent starts serialize on a lock. */
export async function ensureSigningKey(sql: Sql, encryptionKey: Buffer): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('guard.signing-keys'))")
    const { rows } = await tx.query(`SELECT 1 FROM identity.signing_keys WHERE status = 'current'`)
    if (rows.length === 0) await createSigningKey(tx, encryptionKey)
  })
}
