import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { API_VERSION } from '../services/docs/api-index.ts'

/**
 * Collects every route registered after it (OAuth's included) into one OpenAPI 3.1 document,
 * built from the routes' zod schemas, so the document cannot drift from the code.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Guard identity API',
        version: API_VERSION,
        description:
          'OAuth 2.0 / OpenID Connect provider, public plan catalog, changelog, discovery documents and the platform MCP server. Errors are application/problem+json (RFC 9457) with a machine-readable `code`.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      tags: [
        { name: 'api', description: 'API index, health, catalog and changelog' },
        { name: 'oauth', description: 'OAuth 2.0 / OpenID Connect' },
        { name: 'pages', description: 'Sign-in and consent pages of the authorization flow (HTML forms)' },
        { name: 'discovery', description: 'Machine-readable descriptions of this service' },
        { name: 'mcp', description: 'Platform MCP server (JSON-RPC 2.0 over Streamable HTTP)' },
        { name: 'internal', description: 'Service-to-service routes other Guard processes call (not for users)' },
        {
          name: 'admin',
          description:
            'Administration of users, organizations, memberships, OAuth clients and signing keys, with an audit log. Bearer: the admin token from credentials.json, or an access token with the admin scope of a user whose role is admin.',
        },
        { name: 'account', description: 'The signed-in user’s own sessions and password (Bearer access token)' },
      ],
      components: {
        securitySchemes: {
          serviceToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A one-minute HS256 token signed with a key derived from GUARD_SECRET_KEY (see README)',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An admin token (`guard_admin_…`) or a user access token (RS256 JWT)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  })
}
