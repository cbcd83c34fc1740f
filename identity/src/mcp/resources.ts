import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { getCatalog } from '../services/catalog/get.ts'
import { listChangelog } from '../services/changelog/list.ts'
import type { Deprecation } from '../services/docs/deprecations.ts'
import { buildLlmsTxt } from '../services/docs/llms.ts'
import { listDocs } from '../services/docs/read.ts'
import type { ToolDeps } from './tools.ts'

export interface ResourceDeps extends ToolDeps {
  /** The https origin that names the public documents (see `httpsOrigin`). */
  httpsOrigin: string
  deprecations: () => Deprecation[]
  openApi: () => unknown
}

interface PlatformResource {
  uri: string
  name: string
  title: string
  description: string
  mimeType: string
  read(): Promise<string> | string
}

/**
 * Resources name the public documents by their https address; those addresses must be https, so
 * on a plain-http deployment (a laptop) they use the project's canonical https origin instead.
 * Every resource is read from this server, never fetched from that address.
 */
export const httpsOrigin = (publicUrl: string | undefined): string =>
  publicUrl?.startsWith('https://') ? publicUrl : 'https://guard.dev'

const json = (value: unknown) => JSON.stringify(value, null, 2)

/** Documentation pages under guard://docs/, and the public documents under their https address. */
export function platformResources(deps: ResourceDeps): PlatformResource[] {
  const docs = listDocs().map((page) => ({
    uri: `guard://docs/${page.topic}`,
    name: `docs-${page.topic}`,
    title: page.title,
    description: `Guard documentation: ${page.title}`,
    mimeType: 'text/markdown',
    read: () => page.markdown,
  }))
  return [
    ...docs,
    {
      uri: `${deps.httpsOrigin}/llms.txt`,
      name: 'llms-txt',
      title: 'llms.txt',
      description: 'Guide to the identity API for language models, with the deprecated operations',
      mimeType: 'text/markdown',
      read: () => buildLlmsTxt(deps.baseUrl, deps.deprecations()),
    },
    {
      uri: `${deps.httpsOrigin}/api/v1/plans`,
      name: 'plan-catalog',
      title: 'Plan catalog',
      description: 'Plans, add-ons, bundles, features and add-on caps',
      mimeType: 'application/json',
      read: async () => json(await getCatalog(deps.sql, deps.log)),
    },
    {
      uri: `${deps.httpsOrigin}/api/v1/changelog`,
      name: 'changelog',
      title: 'Changelog',
      description: 'Release notes, newest first',
      mimeType: 'application/json',
      read: async () => json(await listChangelog(deps.sql, {}, deps.deprecations())),
    },
    {
      uri: `${deps.httpsOrigin}/openapi.json`,
      name: 'openapi',
      title: 'OpenAPI 3.1 description',
      description: 'Every operation of the identity service with its schemas',
      mimeType: 'application/json',
      read: () => json(deps.openApi()),
    },
  ]
}

export function registerPlatformResources(server: McpServer, deps: ResourceDeps): void {
  for (const resource of platformResources(deps)) {
    const { uri, name, title, description, mimeType } = resource
    server.registerResource(name, uri, { title, description, mimeType }, async () => ({
      contents: [{ uri, mimeType, text: await resource.read() }],
    }))
  }
}

/** The resource entries of the handshake document: what resources/list answers. */
export const describePlatformResources = (deps: ResourceDeps) =>
  platformResources(deps).map(({ uri, name, title, description, mimeType }) => ({
    uri,
    name,
    title,
    description,
    mimeType,
  }))
