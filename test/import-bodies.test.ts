import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { createDomainInput } from '../collector/src/services/domains/schemas.ts'
import { createHeartbeatInput } from '../collector/src/services/heartbeats/schemas.ts'
import { createMaintenanceWindowInput } from '../collector/src/services/maintenance-windows/schemas.ts'
import { createChannelInput } from '../collector/src/services/notifications/channels/schemas.ts'
import { isProviderId, providerOf } from '../collector/src/services/notifications/providers/index.ts'
import { createServiceInput } from '../collector/src/services/services/schemas.ts'
import { importGatus } from '../shared/src/config-as-code/import/gatus/import-gatus.ts'
import type { DocumentEntry, ImportResult } from '../shared/src/config-as-code/import/import-result.ts'
import { importOpenstatus } from '../shared/src/config-as-code/import/openstatus/import-openstatus.ts'

const imports = join(import.meta.dirname, '../shared/src/config-as-code/import')

/** Values of the shape each secret has, standing in for the environment plan and apply read. */
function resolved(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{env:([A-Z0-9_]+)\}/g, (_, name: string) =>
      name.endsWith('BOT_TOKEN')
        ? '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh'
        : name.endsWith('URL')
          ? 'https://hooks.example.com/services/T0/B0/x'
          : 'a-secret-value',
    )
  }
  if (Array.isArray(value)) return value.map(resolved)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolved(inner)]))
  }
  return value
}

/** An entry without the document's references: what the create route receives. */
const body = ({
  id: _id,
  group: _group,
  tags: _tags,
  channels: _channels,
  monitors: _monitors,
  ...rest
}: DocumentEntry) => resolved(rest)

const problems = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value)
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}

function refusals({ document }: ImportResult): string[] {
  const found: string[] = []
  const check = (what: string, schema: z.ZodType, entries: DocumentEntry[] | undefined, extra = {}) => {
    for (const entry of entries ?? []) {
      for (const problem of problems(schema, { ...(body(entry) as object), ...extra }))
        found.push(`${what} ${entry.id}: ${problem}`)
    }
  }
  check('domain', createDomainInput, document.domains)
  check('service', createServiceInput, document.services)
  check('heartbeat', createHeartbeatInput, document.heartbeats)
  check('maintenance', createMaintenanceWindowInput, document.maintenance)
  check('channel', createChannelInput, document.channels)
  for (const channel of document.channels ?? []) {
    const provider = String(channel.provider)
    if (!isProviderId(provider)) found.push(`channel ${channel.id}: no provider ${provider}`)
    else
      for (const problem of problems(providerOf(provider).config, resolved(channel.config)))
        found.push(`channel ${channel.id}: ${problem}`)
  }
  return found
}

describe('imported entries', () => {
  it('are create bodies the collector accepts, for every Gatus and OpenStatus fixture', async () => {
    const gatus = join(imports, 'gatus/fixtures')
    for (const name of (await readdir(gatus)).filter((name) => !name.endsWith('.md'))) {
      expect(refusals(await importGatus(join(gatus, name))), name).toEqual([])
    }
    const openstatus = join(imports, 'openstatus/fixtures')
    for (const name of (await readdir(openstatus)).filter((name) => name.endsWith('.yaml'))) {
      expect(refusals(await importOpenstatus(join(openstatus, name))), name).toEqual([])
    }
  })
})
