import { DOCUMENT_LISTS, type DocumentList, guardDocument } from '@guard/shared/config-as-code'
import { z } from 'zod'
import { createDomainInput } from '../domains/schemas.ts'
import { createGroupInput } from '../groups/schemas.ts'
import { createHeartbeatInput } from '../heartbeats/schemas.ts'
import { createMaintenanceWindowInput } from '../maintenance-windows/schemas.ts'
import { createChannelInput } from '../notifications/channels/schemas.ts'
import { routeInput } from '../notifications/routing/schemas.ts'
import { createServiceInput } from '../services/schemas.ts'
import { createStatusPageInput } from '../status-pages/schemas.ts'
import { createSyntheticInput } from '../synthetics/schemas.ts'

type JsonSchema = Record<string, unknown>

/**
 * Each list's create body, and the body fields the document writes as references instead
 * (`tags` by entry id, `parentId` as `parent`, ...): the document's entry schema says those.
 */
const BODIES: Partial<Record<DocumentList, { schema: z.ZodType; replaced: string[] }>> = {
  groups: { schema: createGroupInput, replaced: ['parentId'] },
  channels: { schema: createChannelInput, replaced: [] },
  routes: { schema: routeInput, replaced: ['channelIds', 'escalationPolicyId', 'selector'] },
  domains: { schema: createDomainInput, replaced: ['tags'] },
  services: { schema: createServiceInput, replaced: ['tags'] },
  heartbeats: { schema: createHeartbeatInput, replaced: ['tags'] },
  synthetics: { schema: createSyntheticInput, replaced: ['tags'] },
  maintenance: { schema: createMaintenanceWindowInput, replaced: ['monitorId'] },
  statusPages: { schema: createStatusPageInput, replaced: [] },
}

const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema

/** The body's schema open to the entry's own fields, without the ones the entry replaces. */
function opened(schema: JsonSchema, replaced: readonly string[]): JsonSchema {
  const copy: JsonSchema = { ...schema }
  delete copy.additionalProperties
  delete copy.$schema
  if (copy.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(copy.properties as JsonSchema).filter(([name]) => !replaced.includes(name)),
    )
  }
  if (Array.isArray(copy.required)) {
    copy.required = (copy.required as string[]).filter((name) => !replaced.includes(name))
  }
  for (const branch of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(copy[branch])) copy[branch] = (copy[branch] as JsonSchema[]).map((item) => opened(item, replaced))
  }
  return copy
}

/**
 * The JSON Schema of guard.yaml editors validate and complete against: the document's structure
 * with each entry's create body, both generated from the zod schemas (docs/guard.schema.json).
 */
export function guardJsonSchema(): JsonSchema {
  const document = toJson(guardDocument)
  const properties = document.properties as Record<string, JsonSchema>
  // References (#/$defs/...) resolve from the root: every body's definitions move there.
  const definitions: JsonSchema = { ...(document.$defs as JsonSchema | undefined) }
  for (const list of DOCUMENT_LISTS) {
    const body = BODIES[list]
    const property = properties[list]
    if (!body || !property) continue
    const { $defs, ...schema } = toJson(body.schema)
    Object.assign(definitions, $defs)
    property.items = { allOf: [property.items as JsonSchema, opened(schema, body.replaced)] }
  }
  if (Object.keys(definitions).length > 0) document.$defs = definitions
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://guard.dev/schemas/guard.json',
    title: 'guard.yaml',
    description: 'Guard monitoring as code (README "Monitoring as code")',
    ...document,
  }
}
