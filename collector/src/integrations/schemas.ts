import { z } from 'zod'
import { domainDetail } from '../services/domains/schemas.ts'
import { serviceView } from '../services/services/schemas.ts'
import { monitorableItem, providerIds } from './provider.ts'

const identifier = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, `${what} holds letters, digits, dots and dashes`)
const secret = z.string().min(1).max(1000)

export const linkCloudAInput = z
  .object({
    /** The directory (tenant) id or its domain name. */
    tenantId: identifier('tenantId'),
    clientId: identifier('clientId'),
    clientSecret: secret,
    subscriptionId: identifier('subscriptionId'),
  })
  .strict()

export const linkSelfhostBInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    url: z
      .url({ protocol: /^https?$/, error: 'url must be the http(s) address of the instance' })
      .max(2048)
      .refine((value) => {
        // The url check above reports what does not parse; zod runs this refinement regardless.
        if (!URL.canParse(value)) return true
        const url = new URL(value)
        return !url.username && !url.password && !url.search && !url.hash
      }, 'url must carry no credentials, query or fragment')
      .transform((value) => {
        const url = new URL(value)
        return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
      }),
    apiKey: secret,
  })
  .strict()

export const startWebhostCInput = z.object({}).strict().nullish()

export const webhostCCallbackQuery = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(2048).optional(),
})
export type WebhostCCallbackQuery = z.infer<typeof webhostCCallbackQuery>

/** Optional settings of the monitor created from an item; the item's name and the defaults otherwise. */
export const monitorItemInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    checkInterval: z.number().int().min(5).max(86_400).optional(),
    timeout: z.number().int().min(1).max(300).optional(),
  })
  .strict()
  .nullish()

export const integrationPlatform = z.object({
  id: z.enum(providerIds).describe("The neutral name the platform's paths use (`/api/{id}/…`)"),
  name: z.string().describe("The product's own name, e.g. Microsoft Azure"),
  description: z.string().describe('What a link reads from the platform'),
  path: z.string().describe('Where its links are listed (GET) and created (POST)'),
  items: z.string().describe('The segment under a link that lists what it hosts, e.g. `{path}/{id}/services`'),
})

const accountBase = z.object({
  id: z.string(),
  name: z.string(),
  platformName: z.string().describe("The product the account is linked at (the path's neutral segment stands for it)"),
  secretHint: z.string().describe('The last characters of the stored secret; the secret itself is never returned'),
  monitors: z.number().int().describe('Monitors created from this account that are still linked to it'),
  createdAt: z.string(),
  updatedAt: z.string(),
})

export const cloudAAccountView = accountBase.extend({
  tenantId: z.string(),
  clientId: z.string(),
  subscriptionId: z.string(),
})
export const selfhostBInstanceView = accountBase.extend({ url: z.string() })
export const webhostCAccountView = accountBase.extend({ userId: z.string(), username: z.string() })

export const webhostCAuthorization = z.object({
  authorizationUrl: z.string().describe("Send the user's browser here to approve the link"),
  redirectUri: z.string(),
  expiresAt: z.string().describe('The authorization must complete before this time'),
})

export const createdMonitor = z.discriminatedUnion('type', [
  z.object({ type: z.literal('domain'), id: z.string(), domain: domainDetail }),
  z.object({ type: z.literal('service'), id: z.string(), service: serviceView }),
])

export const monitorItemResult = z.object({ item: monitorableItem, monitor: createdMonitor })
