import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { keepRefSiblings, transform } from './openapi-transform.ts'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
type Route = Parameters<typeof transform>[0]

describe('transform', () => {
  const component = z.object({ host: z.string() }).meta({ id: 'OpenApiTransformTestConfig' })
  const failure = z.object({ success: z.literal(false), message: z.string() })
  const openapiObject = { openapi: '3.1.0' }
  const route = (url: string, schema: Record<string, unknown>) =>
    ({ url, schema, route: { method: 'POST', url, handler: () => undefined }, openapiObject }) as unknown as Route
  const routes = [
    route('/one', {
      description: 'first',
      body: z.object({ config: component.optional().meta({ description: 'Replaces it' }) }),
      querystring: z.object({ store: z.stringbool().default(false) }),
      response: { 200: z.object({ config: component }), 400: failure, 404: failure },
    }),
    route('/two', {
      params: z.object({ id: z.string() }),
      response: {
        200: { description: 'A list', content: { 'application/json': { schema: z.array(component) } } },
        400: failure,
      },
    }),
    route('/same', { body: component, response: { 200: component } }),
    route('/hidden', { hide: true, body: z.object({ secret: z.string() }) }),
  ]

  it('converts every route as fastify-type-provider-zod does, with the description beside a $ref kept', () => {
    for (const each of routes) {
      const converted = jsonSchemaTransform(each)
      expect(transform(each), each.url).toEqual({ ...converted, schema: keepRefSiblings(converted.schema) })
    }
    const one = transform(routes[0]!).schema as { body: { properties: Record<string, unknown> } }
    expect(one.body.properties.config).toEqual({
      description: 'Replaces it',
      allOf: [ref('OpenApiTransformTestConfigInput')],
    })
  })

  it('gives each route its own copy of a schema converted once, so changing one leaves the others', () => {
    const first = transform(routes[0]!).schema as { response: Record<string, { properties: object }> }
    const second = transform(routes[1]!).schema as { response: Record<string, { properties: object }> }
    expect(first.response[400]).toEqual(second.response[400])
    expect(first.response[400]).not.toBe(second.response[400])
    expect(first.response[400]).not.toBe(first.response[404])
  })
})

describe('keepRefSiblings', () => {
  it('moves a $ref with a description beside it into allOf and leaves a bare $ref alone', () => {
    expect(
      keepRefSiblings({
        type: 'object',
        properties: {
          described: { description: 'kept', ...ref('Config') },
          bare: ref('View'),
          list: { anyOf: [ref('A'), { description: 'b', ...ref('B') }] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        described: { description: 'kept', allOf: [ref('Config')] },
        bare: ref('View'),
        list: { anyOf: [ref('A'), { description: 'b', allOf: [ref('B')] }] },
      },
    })
  })
})
