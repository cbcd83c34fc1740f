import type { DocumentEntry, UnmappedItem } from '../import-result.ts'
import type { SecretCollector } from '../secret-placeholders.ts'
import { type GatusAlert, type GatusProvider, gatusProvider } from './gatus-schema.ts'
import type { GatusNode } from './read-gatus-config.ts'

interface FieldRule {
  /** The setting of Guard's channel it becomes. */
  to: string
  /** Written as a `${env:…}` placeholder unless it is one already. */
  secret?: boolean
  convert?: (value: unknown) => unknown
}

interface ProviderRule {
  /** Guard's provider id (GET /api/notification-providers). */
  provider: string
  fields: Record<string, FieldRule>
  /** Why the settings Guard's channel has no place for are not carried, when it is not just that. */
  otherReason?: string
}

const asText = (value: unknown) => String(value)
const SMTP_REASON =
  'Guard sends e-mail through its own SMTP server (GUARD_SMTP_URL); the channel names only who receives it'

/** Gatus alert type → Guard channel, for the types Guard has (README "Alerting" of each project). */
const PROVIDERS: Record<string, ProviderRule> = {
  slack: { provider: 'slack', fields: { 'webhook-url': { to: 'webhookUrl', secret: true } } },
  discord: { provider: 'discord', fields: { 'webhook-url': { to: 'webhookUrl', secret: true } } },
  pagerduty: { provider: 'pagerduty', fields: { 'integration-key': { to: 'routingKey', secret: true } } },
  'teams-workflows': { provider: 'teams', fields: { 'webhook-url': { to: 'webhookUrl', secret: true } } },
  telegram: {
    provider: 'telegram',
    fields: {
      token: { to: 'botToken', secret: true },
      id: { to: 'chatId', convert: asText },
      'topic-id': { to: 'messageThreadId', convert: Number },
      'api-url': { to: 'apiUrl' },
    },
  },
  email: {
    provider: 'email',
    fields: {
      to: {
        to: 'addresses',
        convert: (value) =>
          String(value)
            .split(',')
            .map((address) => address.trim())
            .filter(Boolean),
      },
    },
    otherReason: SMTP_REASON,
  },
  gotify: {
    provider: 'gotify',
    fields: { 'server-url': { to: 'serverUrl' }, token: { to: 'appToken', secret: true } },
  },
  ntfy: {
    provider: 'ntfy',
    fields: {
      url: { to: 'serverUrl' },
      topic: { to: 'topic', convert: asText },
      token: { to: 'accessToken', secret: true },
    },
  },
  opsgenie: { provider: 'opsgenie', fields: { 'api-key': { to: 'apiKey', secret: true } } },
  pushover: {
    provider: 'pushover',
    fields: {
      'application-token': { to: 'token', secret: true },
      'user-key': { to: 'user', secret: true },
      device: { to: 'device', convert: asText },
      sound: { to: 'sound', convert: asText },
    },
  },
  matrix: {
    provider: 'matrix',
    fields: {
      'server-url': { to: 'homeserverUrl' },
      'access-token': { to: 'accessToken', secret: true },
      'internal-room-id': { to: 'roomId', convert: asText },
    },
  },
  mattermost: {
    provider: 'mattermost',
    fields: { 'webhook-url': { to: 'webhookUrl', secret: true }, channel: { to: 'channel', convert: asText } },
  },
  googlechat: { provider: 'google-chat', fields: { 'webhook-url': { to: 'webhookUrl', secret: true } } },
  rocketchat: {
    provider: 'rocketchat',
    fields: { 'webhook-url': { to: 'webhookUrl', secret: true }, channel: { to: 'channel', convert: asText } },
  },
  twilio: {
    provider: 'twilio',
    fields: {
      sid: { to: 'accountSid', convert: asText },
      token: { to: 'authToken', secret: true },
      from: { to: 'from', convert: asText },
      to: { to: 'to', convert: asText },
    },
  },
}

const NOT_CARRIED: Record<string, string> = {
  teams:
    "Gatus's teams provider posts to an Office 365 connector, which Microsoft retired; Guard's teams channel takes a Power Automate workflow URL (Gatus's teams-workflows)",
}

/** Gatus's custom alert placeholders as the Liquid of Guard's templated webhook. */
function customTemplate(body: string, placeholders: GatusNode | undefined) {
  const states = (placeholders?.ALERT_TRIGGERED_OR_RESOLVED ?? {}) as { TRIGGERED?: unknown; RESOLVED?: unknown }
  const triggered = String(states.TRIGGERED ?? 'TRIGGERED')
  const resolved = String(states.RESOLVED ?? 'RESOLVED')
  const liquid: Record<string, string> = {
    '[ALERT_TRIGGERED_OR_RESOLVED]': `{% if kind == "resolved" %}${resolved}{% else %}${triggered}{% endif %}`,
    '[ENDPOINT_NAME]': '{{ title }}',
    '[ALERT_DESCRIPTION]': '{{ text }}',
  }
  const missing = new Set<string>()
  const template = body.replace(/\[[A-Z_]+\]/g, (placeholder) => {
    const replacement = liquid[placeholder]
    if (replacement !== undefined) return replacement
    missing.add(placeholder)
    return ''
  })
  return { template, missing: [...missing] }
}

const SECRET_HEADER = /authorization|token|key|secret|password/i

export interface MappedAlerting {
  channels: DocumentEntry[]
  /** Gatus alert type → the id of the channel it became. */
  channelOf: Map<string, string>
  /** The provider's `default-alert`, which fills what an endpoint's alert leaves out. */
  defaultAlertOf: Map<string, Partial<GatusAlert>>
  /** Alert types configured under `alerting:` (Gatus ignores an alert of another type). */
  configured: Set<string>
}

interface Context {
  sourceOf: (node: unknown) => string
  unmapped: UnmappedItem[]
  secrets: SecretCollector
}

function mapCustom(id: string, raw: GatusNode, source: string, context: Context) {
  const item = 'alerting.custom'
  const config: GatusNode = {}
  if (typeof raw.url === 'string') config.url = raw.url
  const method = String(raw.method ?? 'POST').toUpperCase()
  if (['POST', 'PUT', 'PATCH'].includes(method)) config.method = method
  else
    context.unmapped.push({
      source,
      item: `${item}.method`,
      reason: `Guard's webhooks send POST, PUT or PATCH, not ${method}; POST is used`,
    })
  const headers: Record<string, string> = {}
  const secretHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries((raw.headers ?? {}) as GatusNode)) {
    if (SECRET_HEADER.test(name)) {
      secretHeaders[name] = context.secrets.secret(String(value), {
        kind: 'channel',
        id,
        field: `header_${name}`,
        source,
        item: `${item}.headers.${name}`,
      })
    } else headers[name] = String(value)
  }
  if (Object.keys(headers).length > 0) config.headers = headers
  if (Object.keys(secretHeaders).length > 0) config.secretHeaders = secretHeaders
  const body = typeof raw.body === 'string' && raw.body.trim() !== '' ? raw.body : undefined
  if (body === undefined) {
    config.bodyTemplate = '{"text": {{ headline | json }}}'
    context.unmapped.push({
      source,
      item: `${item}.body`,
      reason: 'no body: Guard sends {"text": <headline>} instead of an empty one',
    })
  } else {
    const { template, missing } = customTemplate(body, raw.placeholders as GatusNode | undefined)
    config.bodyTemplate = template
    for (const placeholder of missing) {
      context.unmapped.push({
        source,
        item: `${item}.body ${placeholder}`,
        reason: `Guard's alerts have no ${placeholder}; it is left out of the template (its variables: title, text, link, severity, kind…)`,
      })
    }
  }
  for (const key of Object.keys(raw)) {
    if (['url', 'method', 'headers', 'body', 'placeholders', 'default-alert', 'overrides'].includes(key)) continue
    context.unmapped.push({ source, item: `${item}.${key}`, reason: "not a setting of Guard's templated webhook" })
  }
  return { provider: 'templated-webhook', config }
}

function mapProvider(type: string, id: string, raw: GatusNode, source: string, context: Context) {
  if (type === 'custom') return mapCustom(id, raw, source, context)
  const rule = PROVIDERS[type]!
  const config: GatusNode = {}
  const others: string[] = []
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'default-alert' || key === 'overrides') continue
    const field = rule.fields[key]
    if (!field) {
      others.push(key)
      continue
    }
    const item = `alerting.${type}.${key}`
    config[field.to] = field.secret
      ? context.secrets.secret(String(value), { kind: 'channel', id, field: field.to, source, item })
      : (field.convert ?? ((same: unknown) => same))(value)
    if (!field.secret && typeof config[field.to] === 'string')
      context.secrets.reads(config[field.to] as string, source, item)
  }
  if (others.length > 0) {
    context.unmapped.push({
      source,
      item: others.length === 1 ? `alerting.${type}.${others[0]}` : `alerting.${type}.{${others.join(', ')}}`,
      reason:
        rule.otherReason ??
        `${others.length === 1 ? 'not a setting' : 'not settings'} of Guard's ${rule.provider} channel`,
    })
  }
  return { provider: rule.provider, config }
}

/** `alerting:` → channels, one per provider Guard has, heard only by the monitors whose alerts name it. */
export function mapAlerting(alerting: unknown, context: Context): MappedAlerting {
  const mapped: MappedAlerting = {
    channels: [],
    channelOf: new Map(),
    defaultAlertOf: new Map(),
    configured: new Set(),
  }
  if (alerting === undefined || alerting === null) return mapped
  for (const [type, value] of Object.entries(alerting as GatusNode)) {
    const source = context.sourceOf(value)
    const parsed = gatusProvider.safeParse(value ?? {})
    if (!parsed.success) {
      context.unmapped.push({
        source,
        item: `alerting.${type}`,
        reason: `not a provider configuration: ${parsed.error.issues[0]?.message}`,
      })
      continue
    }
    const raw = parsed.data as GatusProvider & GatusNode
    mapped.configured.add(type)
    if (raw['default-alert']) mapped.defaultAlertOf.set(type, raw['default-alert'])
    if (type !== 'custom' && !PROVIDERS[type]) {
      context.unmapped.push({
        source,
        item: `alerting.${type}`,
        reason: NOT_CARRIED[type] ?? `Guard has no ${type} channel; its alerts are not carried`,
      })
      continue
    }
    const id = type === 'custom' ? 'custom-webhook' : type
    const { provider, config } = mapProvider(type, id, raw, source, context)
    mapped.channels.push({ id, name: `${type} (from Gatus)`, provider, config, addToDefaultRoute: false })
    mapped.channelOf.set(type, id)
    for (const [index, override] of (raw.overrides ?? []).entries()) {
      context.unmapped.push({
        source,
        item: `alerting.${type}.overrides[${index}]`,
        reason: `a per-group destination (group ${String(override.group)}): add a second channel and a notification route for the group's tag`,
      })
    }
  }
  return mapped
}
