import { createHash } from 'node:crypto'
import { GuardError } from '@guard/shared'
import { z } from 'zod'
import type { CollectorEnv } from '../env.ts'
import type { Secrets } from './secrets.ts'

export const providerIds = ['cloud-a', 'selfhost-b', 'webhost-c'] as const
export type ProviderId = (typeof providerIds)[number]

/** What a provider item becomes: a domain checked over https/http, or a tcp service. */
export const monitorTarget = z.discriminatedUnion('type', [
  z.object({ type: z.literal('domain'), url: z.string() }),
  z.object({ type: z.literal('service'), protocol: z.literal('tcp'), host: z.string(), port: z.number().int() }),
])
export type MonitorTarget = z.infer<typeof monitorTarget>

/** One thing a linked account hosts that Guard can monitor. */
export interface ProviderItem {
  /** The platform's own identifier. */
  externalId: string
  name: string
  /** What it is at the platform: web-app, vm, database, application, host, project. */
  kind: string
  target: MonitorTarget
}

export const monitorableItem = z.object({
  id: z.string().describe('Stable id of the item within this account; use it in the monitor route'),
  externalId: z.string().describe("The platform's own identifier"),
  name: z.string(),
  kind: z.string(),
  target: monitorTarget,
  monitor: z
    .object({ type: z.enum(['domain', 'service']), id: z.string() })
    .nullable()
    .describe('The Guard monitor created from this item, when there is one'),
})
export type MonitorableItem = z.infer<typeof monitorableItem>

/** A short, URL-safe id that stays the same for the same platform item (ids at platforms hold slashes). */
export const itemId = (item: ProviderItem) =>
  createHash('sha256').update(`${item.kind}\0${item.externalId}`).digest('base64url').slice(0, 24)

/** A linked account as services use it: secrets opened, token (when cached) too. */
export interface LinkedAccount {
  id: string
  organizationId: string
  provider: ProviderId
  name: string
  config: Record<string, string>
  secrets: Secrets
  accessToken: { value: string; expiresAt: Date | null } | undefined
  tokenVersion: number
}

/** An access token from the platform; `secrets` replaces the stored ones (a rotated refresh token). */
export interface TokenGrant {
  accessToken: string
  expiresAt: Date | null
  secrets?: Secrets
  /** False when the token is the stored secret itself (an API key): nothing to cache. */
  cache: boolean
}

/** Authorized reads against the platform, refreshing the token once when it is refused. */
export interface ProviderApi {
  get(url: string, what: string): Promise<unknown>
}

export interface ProviderOptions {
  env: CollectorEnv
}

/**
 * The product a neutral id stands for. The spec's paths keep the neutral ids; people recognise the
 * product's own name, so the console, the API's descriptions and the README show this beside it.
 */
export interface ProviderProduct {
  name: string
  /** What Guard reads from it, in a sentence, without the vendor's marks or logos. */
  description: string
}

/** What every platform implements; links, lists and monitor creation are written once over it. */
export interface IntegrationProvider {
  id: ProviderId
  product: ProviderProduct
  /** Obtains an access token from the account's secrets. */
  grant(options: ProviderOptions, account: LinkedAccount): Promise<TokenGrant>
  /** Proves the credentials reach what they name, and says what the account is called. */
  describe(
    api: ProviderApi,
    options: ProviderOptions,
    account: LinkedAccount,
  ): Promise<{ name: string; externalKey: string; config: Record<string, string> }>
  listItems(api: ProviderApi, options: ProviderOptions, account: LinkedAccount): Promise<ProviderItem[]>
}

/** Pagination links are followed only to the API's own origin, so a listing cannot aim Guard elsewhere. */
export function sameOrigin(link: string, base: string, provider: string): string {
  let url: URL
  try {
    url = new URL(link, base)
  } catch {
    throw new GuardError('BAD_GATEWAY', `${provider} answered an unusable pagination link`)
  }
  if (url.origin !== new URL(base).origin) {
    throw new GuardError('BAD_GATEWAY', `${provider} answered a pagination link to another host`)
  }
  return url.toString()
}

/** How many pages of one listing are read at most, so a looping platform cannot hold a request. */
export const MAX_PAGES = 20
