import type { SwaggerTransform } from '@fastify/swagger'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { z } from 'zod'

type Route = Parameters<SwaggerTransform>[0]
type Converted = Record<string, unknown>

const INPUT_PARTS = ['body', 'querystring', 'params', 'headers'] as const

/**
 * `{ $ref, description }` as `{ description, allOf: [{ $ref }] }`: @fastify/swagger drops whatever
 * stands beside a `$ref` (OpenAPI 3.0's rule), which would lose the description of a field whose
 * schema is a component, such as an update's `protocolConfig`.
 */
export function keepRefSiblings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keepRefSiblings)
  if (value === null || typeof value !== 'object') return value
  const { $ref, ...rest } = value as Record<string, unknown>
  const children = Object.fromEntries(Object.entries(rest).map(([key, child]) => [key, keepRefSiblings(child)]))
  if ($ref === undefined) return children
  return Object.keys(children).length ? { ...children, allOf: [{ $ref }] } : { $ref }
}

/**
 * Converted schemas of one document, by zod schema: the same objects stand in many routes (the
 * error responses in every one, a service's view in each services read), and zod converts a
 * schema with an `id` in full before it writes the `$ref` that replaces it.
 */
const conversions = new WeakMap<object, { inputs: WeakMap<z.ZodType, unknown>; outputs: WeakMap<z.ZodType, unknown> }>()

function conversionsOf(route: Route) {
  const document = 'openapiObject' in route ? route.openapiObject : route.swaggerObject
  let cached = conversions.get(document)
  if (!cached) {
    cached = { inputs: new WeakMap(), outputs: new WeakMap() }
    conversions.set(document, cached)
  }
  return cached
}

function once(cache: WeakMap<z.ZodType, unknown>, schema: z.ZodType, convert: () => unknown): unknown {
  if (!cache.has(schema)) cache.set(schema, convert())
  return cache.get(schema)
}

/**
 * fastify-type-provider-zod's conversion of a route's zod schemas, each distinct schema converted
 * once per document, with what stands beside a `$ref` kept.
 */
export const transform: SwaggerTransform = (route) => {
  if (!route.schema) return jsonSchemaTransform(route)
  const { response, ...parts } = route.schema as Record<string, unknown>
  const head = jsonSchemaTransform({
    ...route,
    schema: Object.fromEntries(
      Object.entries(parts).filter(
        ([name, part]) => !(INPUT_PARTS.includes(name as never) && part instanceof z.ZodType),
      ),
    ),
  })
  if ((head.schema as { hide?: boolean }).hide) return head
  const { inputs, outputs } = conversionsOf(route)
  const schema: Converted = { ...(head.schema as Converted) }
  for (const name of INPUT_PARTS) {
    const part = parts[name]
    if (!(part instanceof z.ZodType)) continue
    schema[name] = once(
      inputs,
      part,
      () => (jsonSchemaTransform({ ...route, schema: { [name]: part } }).schema as Converted)[name],
    )
  }
  if (response && typeof response === 'object') {
    const responses: Converted = {}
    for (const [status, part] of Object.entries(response)) {
      const convert = () =>
        (
          (jsonSchemaTransform({ ...route, schema: { response: { [status]: part } } }).schema as Converted)
            .response as Converted
        )[status]
      responses[status] = part instanceof z.ZodType ? once(outputs, part, convert) : convert()
    }
    schema.response = responses
  }
  return { ...head, schema: keepRefSiblings(schema) as typeof head.schema }
}
