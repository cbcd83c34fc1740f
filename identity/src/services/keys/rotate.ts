import type { Sql } from '@guard/shared'
import { createSigningKey } from './create.ts'

export interface Rotation {
  kid: string
  previousKid: string | null
  retiredKid: string | null
}

/**
 * New tokens are signed with a new key; the old current key stays published as `previous` so
 * tokens it signed keep verifying until they expire. The key before it leaves the key set.
 */
export async function rotateSigningKeys(sql: Sql, encryptionKey: Buffer): Promise<Rotation> {
  return sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('guard.signing-keys'))")
    const retired = await tx.query<{ kid: string }>(
      `UPDATE identity.signing_keys SET status = 'retired' WHERE status = 'previous' RETURNING kid`,
    )
    const previous = await tx.query<{ kid: string }>(
      `UPDATE identity.signing_keys SET status = 'previous' WHERE status = 'current' RETURNING kid`,
    )
    const kid = await createSigningKey(tx, encryptionKey)
    return { kid, previousKid: previous.rows[0]?.kid ?? null, retiredKid: retired.rows[0]?.kid ?? null }
  })
}
