import {
  decryptSecret,
  encryptSecret,
  GuardError,
  resolveAllowedTarget,
  type Sql,
  TargetRefusedError,
} from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { authorOf } from '../incidents/find.ts'
import { newWebhookSecret } from './providers/webhook/index.ts'
import { type SettingsView, type UpdateSettingsInput, updateSettingsInput } from './schemas.ts'

export interface SettingsRow {
  organization_id: string
  principal: string
  email_notifications: boolean
  browser_notifications: boolean
  email_incidents: boolean
  email_downtime: boolean
  email_weekly_reports: boolean
  slack_enabled: boolean
  slack_webhook_url: string | null
  webhook_url: string | null
  webhook_secret_sealed: string | null
  email: string | null
  updated_at: Date
}

/** A receiver URL as shown back: its path can be a credential (Slack's is), so only its start is. */
export function maskUrl(url: string): string {
  const parsed = new URL(url)
  const [first, ...rest] = parsed.pathname.split('/').filter(Boolean)
  return `${parsed.origin}/${first ?? ''}${rest.length > 0 || parsed.search ? '/…' : ''}`
}

export function toSettingsView(ctx: CollectorContext, row: SettingsRow, webhookSecret?: string): SettingsView {
  return {
    organizationId: row.organization_id,
    emailNotifications: row.email_notifications,
    emailAvailable: Boolean(ctx.env.GUARD_SMTP_URL),
    browserNotifications: row.browser_notifications,
    emailIncidents: row.email_incidents,
    emailDowntime: row.email_downtime,
    emailWeeklyReports: row.email_weekly_reports,
    slackEnabled: row.slack_enabled,
    slackWebhookUrl: row.slack_webhook_url ? maskUrl(decryptSecret(ctx.sealKey, row.slack_webhook_url)) : null,
    webhookUrl: row.webhook_url,
    webhookSecretSet: row.webhook_secret_sealed !== null,
    ...(webhookSecret ? { webhookSecret } : {}),
    email: row.email,
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** The in-app feed of the whole organization, copied to a person when they first open theirs. */
export const ORGANIZATION_FEED = 'organization'

/**
 * The caller's settings in their organization, created with the defaults on first use: that makes
 * them a recipient. A new recipient's feed starts with the organization's last 30 days, so nobody
 * misses what happened before their first visit.
 */
export async function ensureSettings(sql: Sql, caller: Caller): Promise<SettingsRow> {
  return sql.transaction(async (tx) => {
    const { rows } = await tx.query<SettingsRow & { created: boolean }>(
      `INSERT INTO monitoring.notification_settings (organization_id, principal) VALUES ($1, $2)
       ON CONFLICT (organization_id, principal) DO UPDATE SET organization_id = excluded.organization_id
       RETURNING *, (xmax = 0) AS created`,
      [caller.organizationId, authorOf(caller)],
    )
    const { created, ...row } = rows[0]!
    if (created) {
      await tx.query(
        `INSERT INTO monitoring.notifications (id, organization_id, principal, event_id, type, message, incident_id, created_at)
         SELECT gen_random_uuid()::text, organization_id, $2, event_id, type, message, incident_id, created_at
           FROM monitoring.notifications
          WHERE organization_id = $1 AND principal = $3 AND created_at > now() - interval '30 days'
          ORDER BY created_at DESC LIMIT 500
         ON CONFLICT DO NOTHING`,
        [caller.organizationId, authorOf(caller), ORGANIZATION_FEED],
      )
    }
    return row
  })
}

export async function getNotificationSettings(ctx: CollectorContext, caller: Caller): Promise<SettingsView> {
  return toSettingsView(ctx, await ensureSettings(ctx.sql, caller))
}

/** https, or http only where the operator allows private targets; the host must pass the SSRF guard. */
export async function vetReceiverUrl(ctx: CollectorContext, field: string, value: string): Promise<void> {
  const url = new URL(value)
  const allowPrivate = ctx.env.GUARD_ALLOW_PRIVATE_TARGETS
  if (url.protocol !== 'https:' && !allowPrivate) throw new GuardError('VALIDATION_ERROR', `${field}: must be https://`)
  if (url.username || url.password) throw new GuardError('VALIDATION_ERROR', `${field}: must not carry credentials`)
  try {
    await resolveAllowedTarget(url.hostname.replace(/^\[|\]$/g, ''), {
      allowPrivate,
      signal: AbortSignal.timeout(5000),
    })
  } catch (error) {
    if (error instanceof TargetRefusedError) throw new GuardError('TARGET_NOT_ALLOWED', `${field}: ${error.message}`)
    throw new GuardError('VALIDATION_ERROR', `${field}: ${url.hostname} could not be resolved`)
  }
}

export const openWebhookSecret = (ctx: CollectorContext, row: Pick<SettingsRow, 'webhook_secret_sealed'>) =>
  row.webhook_secret_sealed ? decryptSecret(ctx.sealKey, row.webhook_secret_sealed) : undefined

/**
 * Changes the caller's settings. Setting a webhook URL for the first time (or rotateWebhookSecret)
 * creates the signing secret, returned in this response only and stored sealed.
 */
export async function updateNotificationSettings(
  ctx: CollectorContext,
  caller: Caller,
  input: UpdateSettingsInput,
): Promise<SettingsView> {
  const parsed = updateSettingsInput.parse(input)
  if (parsed.webhookUrl) await vetReceiverUrl(ctx, 'webhookUrl', parsed.webhookUrl)
  if (parsed.slackWebhookUrl) await vetReceiverUrl(ctx, 'slackWebhookUrl', parsed.slackWebhookUrl)
  const current = await ensureSettings(ctx.sql, caller)
  // Slack's incoming-webhook URL is its credential: stored sealed, shown masked.
  const slackUrl =
    parsed.slackWebhookUrl === undefined
      ? current.slack_webhook_url
      : parsed.slackWebhookUrl && encryptSecret(ctx.sealKey, parsed.slackWebhookUrl)
  const slackEnabled = parsed.slackEnabled ?? current.slack_enabled
  if (slackEnabled && !slackUrl) throw new GuardError('VALIDATION_ERROR', 'slackEnabled needs a slackWebhookUrl')
  const webhookUrl = parsed.webhookUrl === undefined ? current.webhook_url : parsed.webhookUrl
  const secret =
    webhookUrl && (parsed.rotateWebhookSecret || current.webhook_secret_sealed === null)
      ? newWebhookSecret()
      : undefined
  if (parsed.rotateWebhookSecret && !webhookUrl) {
    throw new GuardError('VALIDATION_ERROR', 'rotateWebhookSecret needs a webhookUrl')
  }
  const { rows } = await ctx.sql.query<SettingsRow>(
    `UPDATE monitoring.notification_settings
        SET email_notifications = $3, browser_notifications = $4, email_incidents = $5, email_downtime = $6,
            email_weekly_reports = $7, slack_enabled = $8, slack_webhook_url = $9, webhook_url = $10,
            webhook_secret_sealed = $11, email = $12, updated_at = now()
      WHERE organization_id = $1 AND principal = $2 RETURNING *`,
    [
      current.organization_id,
      current.principal,
      // Giving an address for the first time turns e-mail on where there is a server to send it.
      parsed.emailNotifications ??
        (current.email === null && parsed.email ? Boolean(ctx.env.GUARD_SMTP_URL) : current.email_notifications),
      parsed.browserNotifications ?? current.browser_notifications,
      parsed.emailIncidents ?? current.email_incidents,
      parsed.emailDowntime ?? current.email_downtime,
      parsed.emailWeeklyReports ?? current.email_weekly_reports,
      slackEnabled,
      slackUrl,
      webhookUrl,
      secret ? encryptSecret(ctx.sealKey, secret) : webhookUrl ? current.webhook_secret_sealed : null,
      parsed.email === undefined ? current.email : parsed.email,
    ],
  )
  return toSettingsView(ctx, rows[0]!, secret)
}
