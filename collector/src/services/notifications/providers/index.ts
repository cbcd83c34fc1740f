import { discord } from './discord/index.ts'
import { email } from './email/index.ts'
import { googleChat } from './google-chat/index.ts'
import { gotify } from './gotify/index.ts'
import { matrix } from './matrix/index.ts'
import { mattermost } from './mattermost/index.ts'
import { ntfy } from './ntfy/index.ts'
import { opsgenie } from './opsgenie/index.ts'
import { pagerduty } from './pagerduty/index.ts'
import type { NotificationProvider } from './provider.ts'
import { pushover } from './pushover/index.ts'
import { rocketchat } from './rocketchat/index.ts'
import { slack } from './slack/index.ts'
import { teams } from './teams/index.ts'
import { telegram } from './telegram/index.ts'
import { templatedWebhook } from './templated-webhook/index.ts'
import { twilio } from './twilio/index.ts'
import { webhook } from './webhook/index.ts'

/** Every channel provider by id; a new one is its folder plus one line here. */
export const notificationProviders = {
  webhook,
  slack,
  email,
  pagerduty,
  opsgenie,
  discord,
  telegram,
  teams,
  ntfy,
  gotify,
  'google-chat': googleChat,
  mattermost,
  rocketchat,
  pushover,
  matrix,
  twilio,
  'templated-webhook': templatedWebhook,
} satisfies Record<string, NotificationProvider>

export type ProviderId = keyof typeof notificationProviders
export const providerIds = Object.keys(notificationProviders) as [ProviderId, ...ProviderId[]]

export const isProviderId = (id: string): id is ProviderId => Object.hasOwn(notificationProviders, id)

/** The provider of a stored channel, typed loosely: its config was validated against it when saved. */
export const providerOf = (id: ProviderId): NotificationProvider => notificationProviders[id] as NotificationProvider
