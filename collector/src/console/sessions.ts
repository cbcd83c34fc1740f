import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { decryptSecret, encryptSecret, type Sql } from '@guard/shared'
import { decodeJwt } from 'jose'
import { z } from 'zod'

/** What a console session holds server-side; the browser only ever has the random cookie value. */
export const sessionTokens = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  idToken: z.string().optional(),
})
export type SessionTokens = z.infer<typeof sessionTokens>

export interface ConsoleSession {
  idHash: string
  userId: string
  tokens: SessionTokens
  accessExpiresAt: Date
  version: number
  expiresAt: Date
}

interface Row {
  id_hash: string
  user_id: string
  tokens_sealed: string
  access_expires_at: Date | string
  version: number
  expires_at: Date | string
}

export const hashSessionId = (raw: string) => createHash('sha256').update(raw).digest('base64url')

/** The CSRF token of a session: an HMAC of its cookie value, so it needs no storage and dies with it. */
export function csrfTokenOf(key: Buffer, raw: string): string {
  return createHmac('sha256', key).update(`csrf:${raw}`).digest('base64url')
}

export function csrfMatches(key: Buffer, raw: string, presented: string | undefined): boolean {
  if (!presented) return false
  const expected = Buffer.from(csrfTokenOf(key, raw))
  const given = Buffer.from(presented)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

function fromRow(key: Buffer, row: Row): ConsoleSession {
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    tokens: sessionTokens.parse(JSON.parse(decryptSecret(key, row.tokens_sealed))),
    accessExpiresAt: new Date(row.access_expires_at),
    version: row.version,
    expiresAt: new Date(row.expires_at),
  }
}

export async function createSession(
  sql: Sql,
  key: Buffer,
  input: { userId: string; tokens: SessionTokens; accessExpiresAt: Date; lifetimeSeconds: number },
): Promise<{ raw: string; session: ConsoleSession }> {
  const raw = randomBytes(32).toString('base64url')
  const idHash = hashSessionId(raw)
  const expiresAt = new Date(Date.now() + input.lifetimeSeconds * 1000)
  await sql.query(
    `INSERT INTO monitoring.console_sessions (id_hash, user_id, tokens_sealed, access_expires_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [idHash, input.userId, encryptSecret(key, JSON.stringify(input.tokens)), input.accessExpiresAt, expiresAt],
  )
  return {
    raw,
    session: {
      idHash,
      userId: input.userId,
      tokens: input.tokens,
      accessExpiresAt: input.accessExpiresAt,
      version: 0,
      expiresAt,
    },
  }
}

/** The live session of a cookie value; expired ones are deleted on sight. */
export function findSession(sql: Sql, key: Buffer, raw: string): Promise<ConsoleSession | undefined> {
  return findSessionById(sql, key, hashSessionId(raw))
}

export async function findSessionById(sql: Sql, key: Buffer, idHash: string): Promise<ConsoleSession | undefined> {
  const { rows } = await sql.query<Row>(
    `SELECT id_hash, user_id, tokens_sealed, access_expires_at, version, expires_at
       FROM monitoring.console_sessions WHERE id_hash = $1`,
    [idHash],
  )
  const row = rows[0]
  if (!row) return undefined
  if (new Date(row.expires_at).getTime() <= Date.now()) {
    await deleteSession(sql, idHash)
    return undefined
  }
  return fromRow(key, row)
}

/**
 * Claims the right to refresh the session's tokens, for `seconds`, unless another replica holds a
 * live claim or already refreshed (its version moved on). Identity revokes the whole token family
 * when a rotated refresh token is used twice: only the claimant may use it.
 */
export async function claimRefresh(sql: Sql, session: ConsoleSession, seconds: number): Promise<boolean> {
  const { rows } = await sql.query(
    `UPDATE monitoring.console_sessions
        SET refresh_claimed_until = now() + make_interval(secs => $3)
      WHERE id_hash = $1 AND version = $2
        AND (refresh_claimed_until IS NULL OR refresh_claimed_until < now())
      RETURNING 1`,
    [session.idHash, session.version, seconds],
  )
  return rows.length === 1
}

/** Gives a claim back when the refresh could not reach identity, so the next request may try. */
export async function releaseRefresh(sql: Sql, session: ConsoleSession): Promise<void> {
  await sql.query(
    'UPDATE monitoring.console_sessions SET refresh_claimed_until = NULL WHERE id_hash = $1 AND version = $2',
    [session.idHash, session.version],
  )
}

/** Stores refreshed tokens (and ends the claim) unless the session moved on meanwhile. */
export async function replaceTokens(
  sql: Sql,
  key: Buffer,
  session: ConsoleSession,
  tokens: SessionTokens,
  accessExpiresAt: Date,
): Promise<boolean> {
  const { rows } = await sql.query<{ version: number }>(
    `UPDATE monitoring.console_sessions
        SET tokens_sealed = $3, access_expires_at = $4, version = version + 1, last_seen_at = now(),
            refresh_claimed_until = NULL
      WHERE id_hash = $1 AND version = $2
      RETURNING version`,
    [session.idHash, session.version, encryptSecret(key, JSON.stringify(tokens)), accessExpiresAt],
  )
  return rows.length === 1
}

export async function deleteSession(sql: Sql, idHash: string): Promise<void> {
  await sql.query('DELETE FROM monitoring.console_sessions WHERE id_hash = $1', [idHash])
}

export async function pruneSessions(sql: Sql): Promise<void> {
  await sql.query('DELETE FROM monitoring.console_sessions WHERE expires_at < now()')
}

/** Claims of a token the collector received straight from identity's token endpoint. */
export function claimsOf(token: string | undefined): Record<string, unknown> {
  if (!token) return {}
  try {
    return decodeJwt(token) as Record<string, unknown>
  } catch {
    return {}
  }
}
