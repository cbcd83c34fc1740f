import { GuardError, type GuardFastify } from '@guard/shared'
import { documentYaml, loadDocument } from '@guard/shared/config-as-code'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { applyConfig, applyView } from '../services/config-as-code/apply.ts'
import { exportConfig, exportView } from '../services/config-as-code/export.ts'
import { guardJsonSchema } from '../services/config-as-code/json-schema.ts'
import { listManagedObjects, managedObjectView } from '../services/config-as-code/list-managed.ts'
import { planConfig, planView } from '../services/config-as-code/plan.ts'
import { envelope, errorResponses, ok } from './common.ts'

const read = { access: { permission: 'config:read' as const } }
const write = { access: { permission: 'config:write' as const } }
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml']
/** A document of thousands of monitors is a few MB. */
const BODY_LIMIT = 16 * 1024 * 1024
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true')
const pruneQuery = z.object({
  prune: flag.describe('Delete the objects the document does not name (managed by code only)'),
  pruneUnmanaged: flag.describe('With prune: also the objects apply did not create or adopt'),
})
const documentBody = z
  .record(z.string(), z.unknown())
  .describe('The guard.yaml document as JSON, or as YAML with Content-Type: application/yaml (docs/guard.schema.json)')

/** A YAML body is read as the document; its syntax and schema errors name their line and column. */
function parseYamlBodies(scope: FastifyInstance) {
  scope.addContentTypeParser(YAML_TYPES, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    const loaded = loadDocument([{ file: 'body', text: String(body) }])
    if (loaded.document) return done(null, loaded.document)
    const message = loaded.issues
      .slice(0, 20)
      .map(
        (issue) =>
          `line ${issue.line}, column ${issue.column}${issue.path ? ` (${issue.path})` : ''}: ${issue.message}`,
      )
      .join('; ')
    done(new GuardError('VALIDATION_ERROR', message), undefined)
  })
}

/**
 * Monitoring as code: plan and apply take a guard.yaml document, export writes the organization
 * as one. Environment references are resolved by the sender (the CLI): the collector's own
 * environment is never read into a document.
 */
export async function configRoutes(app: GuardFastify, ctx: CollectorContext): Promise<void> {
  await app.register(async (scope) => {
    parseYamlBodies(scope)
    const routes = scope.withTypeProvider<ZodTypeProvider>()
    routes.post(
      '/api/config/plan',
      {
        config: read,
        bodyLimit: BODY_LIMIT,
        schema: {
          description: 'What apply would change: creates, updates with their changed fields, deletes (with prune)',
          querystring: pruneQuery,
          body: documentBody,
          response: { 200: envelope(planView), ...errorResponses },
        },
      },
      async (request) =>
        ok(await planConfig({ ctx, caller: callerOf(request), input: { document: request.body, ...request.query } })),
    )
    routes.post(
      '/api/config/apply',
      {
        config: write,
        bodyLimit: BODY_LIMIT,
        schema: {
          description:
            'Makes the plan: each change through the object’s own API rules; a failed change is reported and the rest go on',
          querystring: pruneQuery,
          body: documentBody,
          response: { 200: envelope(applyView), ...errorResponses },
        },
      },
      async (request) =>
        ok(await applyConfig({ ctx, caller: callerOf(request), input: { document: request.body, ...request.query } })),
    )
  })
  app.get(
    '/api/config/managed',
    {
      config: read,
      schema: {
        description: 'The objects managed by code (created or adopted by an apply), which the console marks',
        response: { 200: envelope(z.array(managedObjectView)), ...errorResponses },
      },
    },
    async (request) => ok(await listManagedObjects({ ctx, caller: callerOf(request) })),
  )
  app.get(
    '/api/config/export',
    {
      config: read,
      schema: {
        description:
          'The organization as a guard.yaml document (YAML with Accept: application/yaml); write-only values are environment references, listed in `secrets`',
        response: { 200: envelope(exportView), ...errorResponses },
      },
    },
    async (request, reply) => {
      const exported = await exportConfig({ ctx, caller: callerOf(request) })
      if (YAML_TYPES.some((type) => request.headers.accept?.includes(type))) {
        // A YAML answer is text, not the JSON envelope the schema describes.
        return reply.type('application/yaml; charset=utf-8').send(documentYaml(exported.document) as never)
      }
      return ok(exported)
    },
  )
}

/** The JSON Schema of guard.yaml, public: editors fetch it without a key. */
export function guardSchemaRoute(app: FastifyInstance): void {
  const schema = JSON.stringify(guardJsonSchema())
  app.get('/schemas/guard.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('application/schema+json').send(schema),
  )
}
