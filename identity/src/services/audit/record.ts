import { newId, type Sql } from '@guard/shared'

/** Who acts on the admin API: an admin token, an admin user's access token, or the CLI on the store itself. */
export interface Actor {
  type: 'admin_token' | 'user' | 'local' | 'system'
  id: string | undefined
  /** Human-readable: the token's name, the user's email, `guard CLI (store opened directly)`. */
  label: string
  ip: string | undefined
  userAgent: string | undefined
}

export interface AuditEntry {
  action: string
  targetType?: string | undefined
  targetId?: string | undefined
  /** Never secrets: names, roles and flags only. */
  details?: Record<string, unknown> | undefined
}

export async function recordAudit(sql: Sql, actor: Actor, entry: AuditEntry): Promise<void> {
  await sql.query(
    `INSERT INTO identity.audit_log (id, actor_type, actor_id, actor, action, target_type, target_id, details, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      newId(),
      actor.type,
      actor.id ?? null,
      actor.label,
      entry.action,
      entry.targetType ?? null,
      entry.targetId ?? null,
      JSON.stringify(entry.details ?? {}),
      actor.ip ?? null,
      actor.userAgent?.slice(0, 512) ?? null,
    ],
  )
}
