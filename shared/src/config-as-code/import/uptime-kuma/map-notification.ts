import type { ImportContext } from './context.ts'
import { idAllocator } from './keys.ts'
import type { KumaNotification } from './source.ts'

type Settings = Record<string, unknown>
type Entry = { id: string } & Record<string, unknown>

/**
 * A Guard field from a field of Uptime Kuma's notification settings: `secret` ones become
 * `${env:…}` references (their value is never written).
 */
interface Field {
  from: string
  to: string
  secret?: boolean
  /** The value as Guard takes it, or undefined to drop it. */
  convert?: (value: unknown) => unknown
}

interface ProviderMapping {
  provider: string
  fields: Field[]
  /** Settings Guard has no field for, worth a line in the report when set. */
  dropped?: string[]
}

const list = (value: unknown) =>
  String(value)
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter(Boolean)

/** Uptime Kuma's notification types (its `type` setting) Guard has a provider for. */
const PROVIDERS: Record<string, ProviderMapping> = {
  slack: {
    provider: 'slack',
    fields: [{ from: 'slackwebhookURL', to: 'webhookUrl', secret: true }],
    dropped: ['slackchannel', 'slackusername', 'slackiconemo'],
  },
  discord: {
    provider: 'discord',
    fields: [
      { from: 'discordWebhookUrl', to: 'webhookUrl', secret: true },
      { from: 'discordUsername', to: 'username' },
      { from: 'threadId', to: 'threadId' },
    ],
    dropped: ['discordPrefixMessage'],
  },
  telegram: {
    provider: 'telegram',
    fields: [
      { from: 'telegramBotToken', to: 'botToken', secret: true },
      { from: 'telegramChatID', to: 'chatId' },
      { from: 'telegramMessageThreadID', to: 'messageThreadId' },
      { from: 'telegramServerUrl', to: 'apiUrl' },
    ],
    dropped: ['telegramTemplate'],
  },
  webhook: {
    provider: 'webhook',
    fields: [{ from: 'webhookURL', to: 'url' }],
    dropped: ['webhookAdditionalHeaders', 'webhookCustomBody'],
  },
  teams: { provider: 'teams', fields: [{ from: 'webhookUrl', to: 'webhookUrl', secret: true }] },
  gotify: {
    provider: 'gotify',
    fields: [
      { from: 'gotifyserverurl', to: 'serverUrl' },
      { from: 'gotifyapplicationToken', to: 'appToken', secret: true },
    ],
    dropped: ['gotifyPriority'],
  },
  ntfy: {
    provider: 'ntfy',
    fields: [
      { from: 'ntfyserverurl', to: 'serverUrl' },
      { from: 'ntfytopic', to: 'topic' },
      { from: 'ntfyaccesstoken', to: 'accessToken', secret: true },
      { from: 'ntfyusername', to: 'username' },
      { from: 'ntfypassword', to: 'password', secret: true },
    ],
    dropped: ['ntfyPriority', 'ntfyIcon'],
  },
  pushover: {
    provider: 'pushover',
    fields: [
      { from: 'pushoverapptoken', to: 'token', secret: true },
      { from: 'pushoveruserkey', to: 'user', secret: true },
      { from: 'pushoverdevice', to: 'device' },
      { from: 'pushoversounds', to: 'sound' },
    ],
    dropped: ['pushovertitle', 'pushoverpriority'],
  },
  PagerDuty: {
    provider: 'pagerduty',
    fields: [
      { from: 'pagerdutyIntegrationKey', to: 'routingKey', secret: true },
      { from: 'pagerdutyIntegrationUrl', to: 'eventsUrl' },
    ],
    dropped: ['pagerdutyPriority', 'pagerdutyAutoResolve'],
  },
  Opsgenie: {
    provider: 'opsgenie',
    fields: [
      { from: 'opsgenieApiKey', to: 'apiKey', secret: true },
      { from: 'opsgenieRegion', to: 'region' },
    ],
    dropped: ['opsgeniePriority'],
  },
  matrix: {
    provider: 'matrix',
    fields: [
      { from: 'homeserverUrl', to: 'homeserverUrl' },
      { from: 'internalRoomId', to: 'roomId' },
      { from: 'accessToken', to: 'accessToken', secret: true },
    ],
  },
  mattermost: {
    provider: 'mattermost',
    fields: [
      { from: 'mattermostWebhookUrl', to: 'webhookUrl', secret: true },
      { from: 'mattermostusername', to: 'username' },
      { from: 'mattermosticonurl', to: 'iconUrl' },
      { from: 'mattermostchannel', to: 'channel' },
    ],
  },
  'rocket.chat': {
    provider: 'rocketchat',
    fields: [
      { from: 'rocketwebhookURL', to: 'webhookUrl', secret: true },
      { from: 'rocketchannel', to: 'channel' },
      { from: 'rocketusername', to: 'alias' },
      { from: 'rocketiconemo', to: 'emoji' },
    ],
  },
  GoogleChat: { provider: 'google-chat', fields: [{ from: 'googleChatWebhookURL', to: 'webhookUrl', secret: true }] },
  smtp: {
    provider: 'email',
    fields: [{ from: 'smtpTo', to: 'addresses', convert: list }],
    dropped: ['smtpCC', 'smtpBCC', 'customSubject', 'customBody'],
  },
  twilio: {
    provider: 'twilio',
    fields: [
      { from: 'twilioAccountSID', to: 'accountSid' },
      { from: 'twilioAuthToken', to: 'authToken', secret: true },
      { from: 'twilioToNumber', to: 'to' },
      { from: 'twilioFromNumber', to: 'from' },
    ],
  },
}

export interface MappedChannels {
  channels: Entry[]
  /** Source notification id → channel id. */
  channelIds: Map<number, string>
}

/**
 * Notifications of the types Guard has a provider for, as channels; their secrets as references.
 * Uptime Kuma's "default enabled" (on for every new monitor) is Guard's default route; the
 * monitors a notification is on name it in their `channels`.
 */
export function mapNotifications(notifications: KumaNotification[], context: ImportContext): MappedChannels {
  const mapped: MappedChannels = { channels: [], channelIds: new Map() }
  const channelId = idAllocator('channel')
  for (const notification of notifications) {
    const settings = JSON.parse(notification.config) as Settings
    const type = String(settings.type ?? '')
    const mapping = PROVIDERS[type]
    if (!mapping) {
      context.leave('notification', notification.name, `Guard has no ${type || 'untyped'} channel`)
      continue
    }
    const id = channelId(notification.name)
    const config: Settings = {}
    for (const field of mapping.fields) {
      const value = settings[field.from]
      if (value === undefined || value === null || value === '') continue
      if (field.secret) config[field.to] = context.secret('channels', id, `config.${field.to}`)
      else {
        const converted = field.convert ? field.convert(value) : value
        if (converted !== undefined) config[field.to] = converted
      }
    }
    const dropped = (mapping.dropped ?? []).filter((name) => settings[name] !== undefined && settings[name] !== '')
    if (type === 'smtp') {
      context.leave(
        'notification',
        `${notification.name}: SMTP server`,
        'Guard sends e-mail through its own SMTP settings (GUARD_SMTP_URL)',
      )
    }
    if (dropped.length > 0) {
      context.leave(
        'notification',
        `${notification.name}: ${dropped.join(', ')}`,
        `Guard's ${mapping.provider} channel has no such setting`,
      )
    }
    const channel: Entry = { id, name: notification.name.slice(0, 100), provider: mapping.provider, config }
    if (!notification.active) channel.enabled = false
    // A Guard channel joins the default route (every monitor) unless told otherwise.
    if (!notification.is_default) channel.addToDefaultRoute = false
    mapped.channels.push(channel)
    mapped.channelIds.set(notification.id, id)
  }
  return mapped
}
