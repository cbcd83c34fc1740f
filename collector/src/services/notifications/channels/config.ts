import { decryptSecret, encryptSecret, GuardError } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import { type ProviderId, providerOf } from '../providers/index.ts'
import { vetReceiverUrl } from '../settings.ts'

export interface ChannelRow {
  id: string
  organization_id: string
  name: string
  provider: ProviderId
  config: Record<string, unknown>
  secrets_sealed: string | null
  enabled: boolean
  quiet_hours: import('./schemas.ts').QuietHours | null
  state: 'ok' | 'failing'
  state_reason: string | null
  last_delivery_at: Date | null
  last_delivery_status: string | null
  created_at: Date
  updated_at: Date
}

/**
 * Validates a channel's settings against its provider (errors name `config.<field>`), then vets
 * every URL field with the SSRF guard: https, or http where the operator allows private targets.
 */
export async function validateChannelConfig(
  ctx: CollectorContext,
  providerId: ProviderId,
  config: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const provider = providerOf(providerId)
  const parsed = provider.config.safeParse(config)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = ['config', ...issue.path.map(String)].join('.')
    throw new GuardError('VALIDATION_ERROR', `${field}: ${issue.message}`)
  }
  const values = parsed.data as Record<string, unknown>
  for (const field of provider.urlFields) {
    const value = values[field]
    if (typeof value === 'string') await vetReceiverUrl(ctx, `config.${field}`, value)
  }
  return values
}

/** The settings split for storage: secret fields sealed together, the rest stored as JSON. */
export function sealChannelConfig(ctx: CollectorContext, providerId: ProviderId, config: Record<string, unknown>) {
  const secretFields = new Set<string>(providerOf(providerId).secretFields)
  const open: Record<string, unknown> = {}
  const secrets: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(config)) {
    if (secretFields.has(field)) secrets[field] = value
    else open[field] = value
  }
  return {
    config: open,
    secretsSealed: Object.keys(secrets).length > 0 ? encryptSecret(ctx.sealKey, JSON.stringify(secrets)) : null,
  }
}

export const openChannelSecrets = (ctx: CollectorContext, row: Pick<ChannelRow, 'secrets_sealed'>) =>
  row.secrets_sealed ? (JSON.parse(decryptSecret(ctx.sealKey, row.secrets_sealed)) as Record<string, unknown>) : {}

/** The channel's whole settings, secrets opened, for sending. */
export const openChannelConfig = (ctx: CollectorContext, row: Pick<ChannelRow, 'config' | 'secrets_sealed'>) => ({
  ...row.config,
  ...openChannelSecrets(ctx, row),
})
