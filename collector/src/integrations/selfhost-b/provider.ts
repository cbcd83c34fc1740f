import { z } from 'zod'
import { parseAnswer } from '../http.ts'
import type { IntegrationProvider, ProviderItem } from '../provider.ts'

const ID = 'selfhost-b'

const team = z.object({ id: z.union([z.number(), z.string()]), name: z.string().optional() })
const applications = z.array(
  z.object({
    uuid: z.string().min(1),
    name: z.string().min(1),
    fqdn: z.string().nullish(),
    status: z.string().nullish(),
  }),
)
const servers = z.array(
  z.object({ uuid: z.string().min(1), name: z.string().min(1), ip: z.string().min(1), port: z.coerce.number().int() }),
)

/** An application may answer on several comma-separated addresses; each is one item. */
function applicationItems(application: z.infer<typeof applications>[number]): ProviderItem[] {
  const urls = (application.fqdn ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => /^https?:\/\/[^\s]+$/i.test(url))
  return urls.map((url, index) => ({
    externalId: index === 0 ? application.uuid : `${application.uuid}#${url}`,
    name: urls.length > 1 ? `${application.name} (${new URL(url).host})` : application.name,
    kind: 'application',
    target: { type: 'domain', url },
  }))
}

/**
 * selfhost-b (Coolify): a self-hosted platform at the user's own URL, authenticated with an API key
 * (Bearer). Its applications (with their public URLs) and its servers (address and SSH port)
 * are what Guard lists.
 */
export const selfhostB: IntegrationProvider = {
  id: ID,
  product: {
    name: 'Coolify',
    description:
      'A self-hosted Coolify instance, linked by its address and an API token: its applications (each public URL) and its servers.',
  },
  async grant(_options, account) {
    return { accessToken: account.secrets.apiKey!, expiresAt: null, cache: false }
  },
  async describe(api, _options, account) {
    parseAnswer(team, await api.get(`${account.config.url}/api/v1/teams/current`, 'the API key'), ID, 'team')
    return { name: account.name, externalKey: account.config.url!, config: { url: account.config.url! } }
  },
  async listItems(api, _options, account) {
    const base = account.config.url!
    const [apps, hosts] = await Promise.all([
      api.get(`${base}/api/v1/applications`, 'applications'),
      api.get(`${base}/api/v1/servers`, 'servers'),
    ])
    return [
      ...parseAnswer(applications, apps, ID, 'application listing').flatMap(applicationItems),
      ...parseAnswer(servers, hosts, ID, 'server listing')
        .filter((server) => server.port >= 1 && server.port <= 65_535)
        .map(
          (server): ProviderItem => ({
            externalId: server.uuid,
            name: server.name,
            kind: 'host',
            target: { type: 'service', protocol: 'tcp', host: server.ip, port: server.port },
          }),
        ),
    ]
  },
}
