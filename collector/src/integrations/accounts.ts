import { GuardError, newId, notFound, type Sql } from '@guard/shared'
import type { Caller, CollectorContext } from '../context.ts'
import type { MonitorRef } from './monitor-adapter.ts'
import type { LinkedAccount, ProviderId, TokenGrant } from './provider.ts'
import { openSecrets, openValue, type Secrets, sealSecrets, sealValue, secretHint } from './secrets.ts'

interface AccountRow {
  id: string
  organization_id: string
  provider: ProviderId
  name: string
  config: Record<string, string>
  sealed_secrets: string
  secret_hint: string
  sealed_access_token: string | null
  access_token_expires_at: Date | string | null
  token_version: number
  created_at: Date | string
  updated_at: Date | string
}

/** What lists and the link answer show: public facts and a masked hint, never a secret. */
export interface AccountRecord {
  id: string
  organizationId: string
  provider: ProviderId
  name: string
  config: Record<string, string>
  secretHint: string
  createdAt: string
  updatedAt: string
}

const iso = (value: Date | string) => new Date(value).toISOString()

const COLUMNS = `id, organization_id, provider, name, config, sealed_secrets, secret_hint, sealed_access_token,
  access_token_expires_at, token_version, created_at, updated_at`

const toRecord = (row: AccountRow): AccountRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  provider: row.provider,
  name: row.name,
  config: row.config,
  secretHint: row.secret_hint,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

export interface NewAccount {
  organizationId: string
  provider: ProviderId
  name: string
  externalKey: string
  config: Record<string, string>
  secrets: Secrets
  /** The secret whose hint lists show. */
  hintOf: string
  grant: TokenGrant | undefined
  createdBy: string
}

/** Stores a verified link, secrets sealed; the same platform account twice in one organization is a 409. */
export async function insertAccount(ctx: CollectorContext, account: NewAccount): Promise<AccountRecord> {
  const cached = account.grant?.cache ? account.grant : undefined
  const { rows } = await ctx.sql.query<AccountRow>(
    `INSERT INTO monitoring.integration_accounts
       (id, organization_id, provider, name, external_key, config, sealed_secrets, secret_hint,
        sealed_access_token, access_token_expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (organization_id, provider, external_key) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      newId(),
      account.organizationId,
      account.provider,
      account.name,
      account.externalKey,
      JSON.stringify(account.config),
      await sealSecrets(ctx.env, account.secrets),
      secretHint(account.hintOf),
      cached ? await sealValue(ctx.env, cached.accessToken) : null,
      cached?.expiresAt ?? null,
      account.createdBy,
    ],
  )
  if (!rows[0]) {
    throw new GuardError(
      'CONFLICT',
      `This ${account.provider} account is already linked to the organization; delete that link first to link it again`,
    )
  }
  return toRecord(rows[0])
}

async function findRow(sql: Sql, caller: Caller, provider: ProviderId, id: string): Promise<AccountRow> {
  const { rows } = await sql.query<AccountRow>(
    `SELECT ${COLUMNS} FROM monitoring.integration_accounts
     WHERE id = $1 AND provider = $2 AND organization_id = ANY($3)`,
    [id, provider, caller.organizationIds],
  )
  if (!rows[0]) throw notFound(`${provider} account`)
  return rows[0]
}

/** The caller's linked account with its secrets opened, for calls to the platform. */
export async function openAccount(
  ctx: CollectorContext,
  caller: Caller,
  provider: ProviderId,
  id: string,
): Promise<LinkedAccount> {
  const row = await findRow(ctx.sql, caller, provider, id)
  return {
    id: row.id,
    organizationId: row.organization_id,
    provider: row.provider,
    name: row.name,
    config: row.config,
    ...(await unseal(ctx, row)),
    tokenVersion: row.token_version,
  }
}

async function unseal(ctx: CollectorContext, row: AccountRow) {
  try {
    return {
      secrets: await openSecrets(ctx.env, row.sealed_secrets),
      accessToken: row.sealed_access_token
        ? {
            value: await openValue(ctx.env, row.sealed_access_token),
            expiresAt: row.access_token_expires_at ? new Date(row.access_token_expires_at) : null,
          }
        : undefined,
    }
  } catch {
    throw new GuardError(
      'INTERNAL_ERROR',
      'The stored secrets of this account do not decrypt: GUARD_SECRET_KEY is not the key they were sealed with',
    )
  }
}

/**
 * Fails the start, rather than the first request, when the configured key cannot open the
 * secrets already stored (GUARD_SECRET_KEY changed, or another data directory's secret.key).
 */
export async function checkSealingKey(ctx: CollectorContext): Promise<void> {
  const { rows } = await ctx.sql.query<{ sealed_secrets: string }>(
    'SELECT sealed_secrets FROM monitoring.integration_accounts ORDER BY created_at LIMIT 1',
  )
  if (rows[0]) await openSecrets(ctx.env, rows[0].sealed_secrets)
}

/**
 * The account's token and secrets as stored now, when another request or replica has renewed
 * them since `account` was read; undefined when nothing changed.
 */
export async function renewedElsewhere(
  ctx: CollectorContext,
  account: LinkedAccount,
): Promise<Pick<LinkedAccount, 'secrets' | 'accessToken' | 'tokenVersion'> | undefined> {
  const { rows } = await ctx.sql.query<AccountRow>(
    `SELECT ${COLUMNS} FROM monitoring.integration_accounts WHERE id = $1 AND token_version <> $2`,
    [account.id, account.tokenVersion],
  )
  if (!rows[0]) return undefined
  return { ...(await unseal(ctx, rows[0])), tokenVersion: rows[0].token_version }
}

export async function listAccountRecords(
  sql: Sql,
  organizationId: string,
  provider: ProviderId,
): Promise<AccountRecord[]> {
  const { rows } = await sql.query<AccountRow>(
    `SELECT ${COLUMNS} FROM monitoring.integration_accounts
     WHERE organization_id = $1 AND provider = $2
     ORDER BY created_at, id`,
    [organizationId, provider],
  )
  return rows.map(toRecord)
}

export interface MonitorLink {
  accountId: string
  itemId: string
  monitor: MonitorRef
}

/** Which monitors were created from which items of these accounts. */
export async function monitorLinks(sql: Sql, accountIds: string[]): Promise<MonitorLink[]> {
  const { rows } = await sql.query<{
    account_id: string
    item_id: string
    monitor_type: MonitorRef['type']
    monitor_id: string
  }>(
    `SELECT account_id, item_id, monitor_type, monitor_id FROM monitoring.integration_monitors
     WHERE account_id = ANY($1)`,
    [accountIds],
  )
  return rows.map((row) => ({
    accountId: row.account_id,
    itemId: row.item_id,
    monitor: { type: row.monitor_type, id: row.monitor_id },
  }))
}

/**
 * Stores a new token (and rotated secrets) only when nobody stored one since this account was
 * read: with rotating refresh tokens, the replica that lost the race must keep the winner's.
 */
export async function saveGrant(ctx: CollectorContext, account: LinkedAccount, grant: TokenGrant): Promise<boolean> {
  const { affectedRows } = await ctx.sql.query(
    `UPDATE monitoring.integration_accounts
     SET sealed_access_token = $1, access_token_expires_at = $2, sealed_secrets = COALESCE($3, sealed_secrets),
         secret_hint = COALESCE($4, secret_hint), token_version = token_version + 1, updated_at = now()
     WHERE id = $5 AND token_version = $6`,
    [
      grant.cache ? await sealValue(ctx.env, grant.accessToken) : null,
      grant.cache ? grant.expiresAt : null,
      grant.secrets ? await sealSecrets(ctx.env, grant.secrets) : null,
      grant.secrets?.refreshToken ? secretHint(grant.secrets.refreshToken) : null,
      account.id,
      account.tokenVersion,
    ],
  )
  return affectedRows === 1
}

export async function deleteAccountRow(sql: Sql, caller: Caller, provider: ProviderId, id: string): Promise<void> {
  const { affectedRows } = await sql.query(
    'DELETE FROM monitoring.integration_accounts WHERE id = $1 AND provider = $2 AND organization_id = ANY($3)',
    [id, provider, caller.organizationIds],
  )
  if (affectedRows !== 1) throw notFound(`${provider} account`)
}
