import { platformLinks } from '../platform/links.ts'
import type { Deprecation } from './deprecations.ts'
import { docBody, listDocs } from './read.ts'

/**
 * llms.txt (llmstxt.org): a title, a one-line summary, links to the machine-readable documents,
 * then the documentation pages and the deprecated operations, all in Markdown.
 */
export function buildLlmsTxt(baseUrl: string, deprecations: Deprecation[]): string {
  const links = platformLinks(baseUrl)
  const pages = listDocs()
  const deprecated = deprecations.length
    ? deprecations.map(
        (item) =>
          `- ${item.method} ${item.path}: deprecated since ${item.announced.toISOString().slice(0, 10)}, sunset ${item.sunset.toUTCString()}${item.replacement ? `; use ${item.replacement}` : ''}`,
      )
    : ['- none']
  return [
    '# Guard',
    '',
    '> Open-source distributed uptime and infrastructure monitoring. This service is its identity provider (OAuth 2.0 / OpenID Connect) and publishes the plan catalog, the changelog and a public read-only MCP server.',
    '',
    '## Machine-readable documents',
    '',
    `- [API index](${links.self}): endpoints, versioning, errors, rate limit`,
    `- [OpenAPI 3.1](${links.openapi}): every operation with its schemas`,
    `- [Plan catalog](${links.plans})`,
    `- [Changelog](${links.changelog})`,
    `- [OpenID configuration](${links.openidConfiguration})`,
    `- [OAuth authorization server metadata](${links.oauthAuthorizationServer}) (RFC 8414): dynamic client registration and RFC 8707 resources for MCP assistants`,
    `- [MCP handshake](${links.mcpHandshake}); JSON-RPC at ${links.mcp}`,
    '',
    '## Deprecated operations',
    '',
    ...deprecated,
    '',
    ...pages.flatMap((page) => [`## ${page.title}`, '', docBody(page).replace(/^## /gm, '### '), '']),
  ].join('\n')
}
