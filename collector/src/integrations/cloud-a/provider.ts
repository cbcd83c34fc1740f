import { z } from 'zod'
import { httpOptionsOf, parseAnswer } from '../http.ts'
import { cachedGrant, requestToken } from '../oauth.ts'
import {
  type IntegrationProvider,
  type LinkedAccount,
  MAX_PAGES,
  type ProviderApi,
  type ProviderItem,
  type ProviderOptions,
  sameOrigin,
} from '../provider.ts'

const ID = 'cloud-a'

const page = <T extends z.ZodType>(item: T) => z.object({ value: z.array(item), nextLink: z.string().nullish() })
const resource = <T extends z.ZodRawShape>(properties: T) =>
  z.object({ id: z.string().min(1), name: z.string().min(1), properties: z.object(properties).partial().nullish() })

/** One listing per kind of resource Guard can monitor; `toItem` says how it is reached. */
const listings: Array<{
  path: string
  apiVersion: string
  schema: ReturnType<typeof resource>
  toItem(resource: { id: string; name: string; properties?: Record<string, unknown> | null }): ProviderItem | undefined
}> = [
  {
    path: 'Microsoft.Web/sites',
    apiVersion: '2023-12-01',
    schema: resource({ defaultHostName: z.string().nullable() }),
    toItem: ({ id, name, properties }) =>
      typeof properties?.defaultHostName === 'string'
        ? {
            externalId: id,
            name,
            kind: 'web-app',
            target: { type: 'domain', url: `https://${properties.defaultHostName}` },
          }
        : undefined,
  },
  {
    // A public address bound to a network interface is a virtual machine's; SSH (22) is what answers.
    path: 'Microsoft.Network/publicIPAddresses',
    apiVersion: '2024-05-01',
    schema: resource({ ipAddress: z.string().nullable(), ipConfiguration: z.object({ id: z.string() }).nullable() }),
    toItem: ({ id, name, properties }) => {
      const address = properties?.ipAddress
      const boundTo = (properties?.ipConfiguration as { id?: string } | null | undefined)?.id ?? ''
      if (typeof address !== 'string' || !/\/networkInterfaces\//i.test(boundTo)) return undefined
      return { externalId: id, name, kind: 'vm', target: { type: 'service', protocol: 'tcp', host: address, port: 22 } }
    },
  },
  ...(
    [
      ['Microsoft.Sql/servers', '2023-08-01', 1433],
      ['Microsoft.DBforPostgreSQL/flexibleServers', '2024-08-01', 5432],
      ['Microsoft.DBforMySQL/flexibleServers', '2023-12-30', 3306],
    ] as const
  ).map(([path, apiVersion, port]) => ({
    path,
    apiVersion,
    schema: resource({ fullyQualifiedDomainName: z.string().nullable() }),
    toItem: ({ id, name, properties }: { id: string; name: string; properties?: Record<string, unknown> | null }) =>
      typeof properties?.fullyQualifiedDomainName === 'string'
        ? {
            externalId: id,
            name,
            kind: 'database',
            target: {
              type: 'service' as const,
              protocol: 'tcp' as const,
              host: properties.fullyQualifiedDomainName,
              port,
            },
          }
        : undefined,
  })),
]

const subscription = z.object({ subscriptionId: z.string(), displayName: z.string().optional() })

const subscriptionUrl = (options: ProviderOptions, account: LinkedAccount) =>
  `${options.env.GUARD_CLOUD_A_API_URL}/subscriptions/${encodeURIComponent(account.config.subscriptionId!)}`

async function listAll(
  api: ProviderApi,
  first: string,
  base: string,
  listing: (typeof listings)[number],
): Promise<ProviderItem[]> {
  const items: ProviderItem[] = []
  let next: string | undefined = first
  for (let pages = 0; next && pages < MAX_PAGES; pages += 1) {
    const answer: { value: Array<z.infer<typeof listing.schema>>; nextLink?: string | null | undefined } = parseAnswer(
      page(listing.schema),
      await api.get(next, listing.path),
      ID,
      `${listing.path} listing`,
    )
    for (const entry of answer.value) {
      const item = listing.toItem(entry)
      if (item) items.push(item)
    }
    next = answer.nextLink ? sameOrigin(answer.nextLink, base, ID) : undefined
  }
  return items
}

/**
 * cloud-a (Microsoft Azure): a service principal (tenant, client id and secret) gets an OAuth 2.0 client-credentials
 * token from its tenant's token endpoint; the subscription's web apps, virtual machines with
 * public addresses and databases are what Guard lists.
 */
export const cloudA: IntegrationProvider = {
  id: ID,
  product: {
    name: 'Microsoft Azure',
    description:
      'An Azure subscription, linked with a service principal (Microsoft Entra ID app registration): its App Service web apps, virtual machines with public IP addresses, and Azure SQL, PostgreSQL and MySQL servers.',
  },
  async grant(options, account) {
    const answer = await requestToken(
      `${options.env.GUARD_CLOUD_A_TOKEN_URL}/${encodeURIComponent(account.config.tenantId!)}/oauth2/v2.0/token`,
      {
        grant_type: 'client_credentials',
        client_id: account.config.clientId!,
        client_secret: account.secrets.clientSecret!,
        scope: `${options.env.GUARD_CLOUD_A_API_URL}/.default`,
      },
      httpOptionsOf(options.env, ID),
    )
    return cachedGrant(answer)
  },
  async describe(api, options, account) {
    const url = `${subscriptionUrl(options, account)}?api-version=2022-12-01`
    const found = parseAnswer(subscription, await api.get(url, 'that subscription'), ID, 'subscription')
    const { tenantId = '', clientId = '', subscriptionId = '' } = account.config
    return {
      name: found.displayName ?? subscriptionId,
      externalKey: `${tenantId}/${clientId}/${subscriptionId}`,
      config: { tenantId, clientId, subscriptionId },
    }
  },
  async listItems(api, options, account) {
    const base = options.env.GUARD_CLOUD_A_API_URL
    const lists = await Promise.all(
      listings.map((listing) =>
        listAll(
          api,
          `${subscriptionUrl(options, account)}/providers/${listing.path}?api-version=${listing.apiVersion}`,
          base,
          listing,
        ),
      ),
    )
    return lists.flat()
  },
}
