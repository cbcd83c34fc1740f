import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { buildLlmsTxt } from '../services/docs/llms.ts'
import { baseUrl, type PlatformContext } from './context.ts'
import { problemResponses } from './schemas.ts'

const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
  components: z.record(z.string(), z.unknown()).optional(),
})

/** The OpenAPI document generated from every route's schemas, and llms.txt. */
export function discoveryRoutes(app: GuardFastify, ctx: PlatformContext): void {
  app.get(
    '/openapi.json',
    {
      config: { rateLimit: 'count' },
      schema: {
        summary: 'OpenAPI 3.1 description of this service',
        tags: ['discovery'],
        response: { 200: openApiDocument, ...problemResponses(429, 500) },
      },
    },
    // @fastify/swagger types the result as Swagger 2 or OpenAPI 3; this app only builds 3.1.
    async (request) => openApiDocument.parse({ ...app.swagger(), servers: [{ url: baseUrl(ctx, request) }] }),
  )
  app.get(
    '/llms.txt',
    {
      config: { rateLimit: 'count' },
      schema: {
        summary: 'Guide to this API for language models (llmstxt.org), with the deprecated operations',
        tags: ['discovery'],
        response: {
          200: { description: 'Markdown', content: { 'text/markdown': { schema: z.string() } } },
          ...problemResponses(429, 500),
        },
      },
    },
    async (request, reply) => {
      reply.type('text/markdown; charset=utf-8')
      return buildLlmsTxt(baseUrl(ctx, request), ctx.deprecations())
    },
  )
}
