import type { SwaggerTransformObject } from '@fastify/swagger'
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod'

const COMPONENT = '#/components/schemas/'
/** What fastify-type-provider-zod appends to the component of a schema's input side. */
const INPUT_SUFFIX = 'Input'

type Schemas = Record<string, unknown>

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into)
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT)) {
      into.add(child.slice(COMPONENT.length))
    } else collectRefs(child, into)
  }
}

/** The components the paths use, directly or through another component. */
function referencedFrom(paths: unknown, schemas: Schemas): Set<string> {
  const pending = new Set<string>()
  collectRefs(paths, pending)
  const reached = new Set<string>()
  for (const name of pending) {
    if (reached.has(name)) continue
    reached.add(name)
    collectRefs(schemas[name], pending)
  }
  return reached
}

/**
 * A zod schema with an `id` becomes two components, its input side (`<id>Input`) and its output
 * side (`<id>`), whether routes use both or not. Keeps those the paths refer to, and names an input
 * side that has no output side in use after its id, so `PostgresProtocolConfig` is the schema
 * request bodies take.
 */
export function keepReferencedComponents<
  Document extends { paths?: unknown; components?: { schemas?: Schemas } | undefined },
>(document: Document): Document {
  const schemas = document.components?.schemas ?? {}
  const used = referencedFrom(document.paths, schemas)
  const renamed = new Map<string, string>()
  for (const name of used) {
    const plain = name.slice(0, -INPUT_SUFFIX.length)
    if (name.endsWith(INPUT_SUFFIX) && !used.has(plain)) renamed.set(name, plain)
  }
  const kept = Object.fromEntries(
    [...used].sort().map((name) => [renamed.get(name) ?? name, schemas[name]] as const),
  ) as Schemas
  const withKept = { ...document, components: { ...document.components, schemas: kept } }
  return JSON.parse(JSON.stringify(withKept), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)
      ? `${COMPONENT}${renamed.get(value.slice(COMPONENT.length)) ?? value.slice(COMPONENT.length)}`
      : value,
  )
}

/** fastify-type-provider-zod's components (every schema with an `id`), trimmed to those in use. */
export const transformObject: SwaggerTransformObject = (documentObject) => {
  const document = jsonSchemaTransformObject(documentObject)
  return 'openapi' in document ? keepReferencedComponents(document) : document
}
