import type { FastifyInstance } from 'fastify'
import { assertSunsetNotice, type Deprecation } from '../services/docs/deprecations.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks the operation deprecated: headers on every response, OpenAPI `deprecated`, changelog and llms.txt entries. */
    deprecation?: {
      announced: string
      sunset: string
      version?: string
      replacement?: string
    }
  }
}

/**
 * Collects the routes marked deprecated and sends `Deprecation: true` and `Sunset` on their
 * responses. Returns the live list, read by the changelog and llms.txt at request time, so a
 * route added after this call is listed too. A sunset with less than the promised notice fails
 * at start, not in front of a client.
 */
export function registerDeprecations(app: FastifyInstance): () => Deprecation[] {
  const deprecations: Deprecation[] = []
  app.addHook('onRoute', (route) => {
    const marked = route.config?.deprecation
    if (!marked) return
    const methods = [route.method].flat().filter((method) => method !== 'HEAD')
    for (const method of methods) {
      const deprecation: Deprecation = {
        method,
        path: route.url,
        announced: new Date(marked.announced),
        sunset: new Date(marked.sunset),
        version: marked.version ?? 'v1',
        replacement: marked.replacement,
      }
      assertSunsetNotice(deprecation)
      deprecations.push(deprecation)
    }
    // Read by @fastify/swagger when the document is built, so OpenAPI marks the operation too.
    route.schema = { ...route.schema, deprecated: true } as typeof route.schema
  })
  app.addHook('onSend', async (request, reply) => {
    const marked = request.routeOptions.config.deprecation
    if (!marked) return
    reply.header('Deprecation', 'true')
    reply.header('Sunset', new Date(marked.sunset).toUTCString())
  })
  return () => [...deprecations]
}
