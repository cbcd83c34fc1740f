import { GuardError } from '@guard/shared'
import type { DocumentList } from '@guard/shared/config-as-code'
import type { z } from 'zod'
import type { Caller, CollectorContext } from '../../../context.ts'
import { readDependencies } from '../../dependencies/read.ts'
import { createDomain } from '../../domains/create.ts'
import { deleteDomain } from '../../domains/delete.ts'
import { domainOf } from '../../domains/find.ts'
import { createDomainInput } from '../../domains/schemas.ts'
import { updateDomain } from '../../domains/update.ts'
import { groupsOf } from '../../groups/filter.ts'
import { setGroupMembers } from '../../groups/set-members.ts'
import { createHeartbeat } from '../../heartbeats/create.ts'
import { deleteHeartbeat } from '../../heartbeats/delete.ts'
import { listHeartbeats } from '../../heartbeats/list.ts'
import { createHeartbeatInput } from '../../heartbeats/schemas.ts'
import { updateHeartbeat } from '../../heartbeats/update.ts'
import { listMonitors } from '../../monitors/list.ts'
import type { MonitorRecord } from '../../monitors/schemas.ts'
import { createService } from '../../services/create.ts'
import { deleteService } from '../../services/delete.ts'
import { serviceOf } from '../../services/find.ts'
import { createServiceInput } from '../../services/schemas.ts'
import { serviceSecrets } from '../../services/target.ts'
import { updateService } from '../../services/update.ts'
import { createSynthetic } from '../../synthetics/create.ts'
import { deleteSynthetic } from '../../synthetics/delete.ts'
import { listSynthetics } from '../../synthetics/list.ts'
import { createSyntheticInput } from '../../synthetics/schemas.ts'
import { updateSynthetic } from '../../synthetics/update.ts'
import type {
  CurrentObject,
  DesiredFields,
  Fields,
  KindAdapter,
  MonitorConfigKind,
  References,
  Scope,
} from '../kind.ts'

/** The document fields of a monitor that name other entries; the rest is the create body. */
const REFERENCE_FIELDS = ['id', 'group', 'dependsOn', 'channels', 'tags'] as const

const withoutUndefined = (fields: Fields): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null))

/** The monitor's group and parents, read for all monitors of a kind at once. */
async function placement(ctx: CollectorContext, ids: string[]) {
  const [groups, dependencies] = await Promise.all([groupsOf(ctx.sql, 'monitors', ids), readDependencies(ctx.sql, ids)])
  return (id: string, references: References): Fields => {
    const group = groups.get(id)
    const parents = dependencies.get(id)?.dependsOn ?? []
    return withoutUndefined({
      group: group ? references.keyOf('group', group) : undefined,
      dependsOn: parents.length > 0 ? parents.map((parent) => monitorKey(references, parent)).sort() : undefined,
    })
  }
}

const monitorKey = (references: References, id: string) =>
  (['domain', 'service', 'heartbeat', 'synthetic'] as const).map((kind) => references.keyOf(kind, id)).find(Boolean) ??
  id

/**
 * The create body of an entry, parsed by the kind's own schema: `tags` name tag entries by id,
 * and `group` and `dependsOn` are compared as references and written by apply.
 */
function desiredOf(
  schema: z.ZodType,
  secretFields: (parsed: Fields) => Fields,
): (entry: Fields, references: References) => DesiredFields {
  return (entry, references) => {
    if (entry.channels !== undefined) {
      throw new GuardError(
        'VALIDATION_ERROR',
        'channels: per-monitor channels are not supported yet; name the monitor in a route (routes[].selector.monitors)',
      )
    }
    const body = Object.fromEntries(
      Object.entries(entry).filter(([field]) => !(REFERENCE_FIELDS as readonly string[]).includes(field)),
    )
    const tags = Array.isArray(entry.tags) ? (entry.tags as string[]).map(references.tagName) : undefined
    const parsed = schema.parse({ ...body, ...(tags ? { tags } : {}) }) as Fields
    const secrets = secretFields(parsed)
    const fields = Object.fromEntries(Object.entries(parsed).filter(([field]) => !(field in secrets)))
    return {
      fields: withoutUndefined({
        ...fields,
        tags: [...((entry.tags as string[] | undefined) ?? [])].sort(),
        group: entry.group,
        dependsOn: Array.isArray(entry.dependsOn) ? [...(entry.dependsOn as string[])].sort() : undefined,
      }),
      secrets,
    }
  }
}

/** Moves a monitor into the group its entry names. */
async function placeInGroup(scope: Scope, kind: MonitorConfigKind, id: string, group: unknown) {
  if (typeof group !== 'string') return
  const groupId = scope.references.idOf('group', group)
  if (!groupId) throw new GuardError('VALIDATION_ERROR', `group: unknown group id ${group}`)
  await setGroupMembers({ ctx: scope.ctx, caller: scope.caller, input: { id: groupId, add: [{ kind, id }] } })
}

/** The body of a create or update: the entry's fields and write-only values, without the references. */
function bodyOf(fields: Fields, secrets: Fields = {}): Fields {
  const { group: _group, dependsOn: _dependsOn, ...body } = fields
  return { ...body, ...secrets }
}

const pick = (from: Fields, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => from[name] !== undefined).map((name) => [name, from[name]]))

/** The changed fields of an update as its body: write-only ones from the entry's write-only values. */
export function changedBody(changed: readonly string[], desired: DesiredFields): Fields {
  return Object.fromEntries(
    changed.map((field) => [
      field,
      field in desired.secrets ? desired.secrets[field] : (desired.fields[field] ?? null),
    ]),
  )
}

type MonitorKinds = {
  kind: MonitorConfigKind
  list: DocumentList
  schema: z.ZodType
  secretFields: (parsed: Fields) => Fields
  read: (
    ctx: CollectorContext,
    caller: Caller,
  ) => Promise<{ id: string; name: string; fields: Fields; secrets?: readonly string[] }[]>
  create: (scope: Scope, body: Fields) => Promise<string>
  update: (scope: Scope, id: string, body: Fields, desired: DesiredFields) => Promise<void>
  remove: (scope: Scope, id: string) => Promise<void>
}

function monitorAdapter(kind: MonitorKinds): KindAdapter {
  return {
    kind: kind.kind,
    list: kind.list,
    unordered: ['tags', 'dependsOn', 'locations'],
    async read(ctx, caller): Promise<CurrentObject[]> {
      const monitors = await kind.read(ctx, caller)
      const placed = await placement(
        ctx,
        monitors.map((monitor) => monitor.id),
      )
      return monitors.map((monitor) => ({
        objectId: monitor.id,
        name: monitor.name,
        ...(monitor.secrets ? { secrets: monitor.secrets } : {}),
        fields: (references) => {
          const tags = Array.isArray(monitor.fields.tags) ? (monitor.fields.tags as string[]) : []
          return withoutUndefined({
            ...monitor.fields,
            tags: tags.map(references.tagKey).sort(),
            ...placed(monitor.id, references),
          })
        },
      }))
    },
    desired: desiredOf(kind.schema, kind.secretFields),
    async create(scope, desired) {
      const id = await kind.create(scope, bodyOf(desired.fields, desired.secrets))
      await placeInGroup(scope, kind.kind, id, desired.fields.group)
      return id
    },
    async update(scope, id, changed, desired) {
      const body = bodyOf(changedBody(changed, desired))
      if (Object.keys(body).length > 0) await kind.update(scope, id, body, desired)
      if (changed.includes('group')) await placeInGroup(scope, kind.kind, id, desired.fields.group)
    },
    remove: kind.remove,
  }
}

/** A tag names entries of `tags` in the document and tag strings in the body: the body's are kept in names. */
const tagNames = (fields: Fields, references: References): Fields =>
  Array.isArray(fields.tags) ? { ...fields, tags: (fields.tags as string[]).map(references.tagName) } : fields

/** Where a monitor's credentials sit, by its authentication type. */
const credentialPaths = (at: string, authType: string) =>
  authType === 'basic' ? [`${at}.username`, `${at}.password`] : authType === 'bearer' ? [`${at}.token`] : []

/** The names a synthetic's steps use as `{{secrets.NAME}}`: the secrets it holds. */
const secretNamesOf = (steps: unknown) => [
  ...new Set(
    [...JSON.stringify(steps).matchAll(/\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].map((match) => match[1]!),
  ),
]

const listOf = (ctx: CollectorContext, caller: Caller, kind: 'domain' | 'service') =>
  listMonitors({ ctx, caller, input: { kind } })

const rules = (monitor: MonitorRecord) => ({
  failureThreshold: monitor.failureThreshold,
  quorumPercent: monitor.quorumPercent,
})

export const domainAdapter = monitorAdapter({
  kind: 'domain',
  list: 'domains',
  schema: createDomainInput,
  secretFields: (parsed) => pick(parsed, ['credentials']),
  async read(ctx, caller) {
    return (await listOf(ctx, caller, 'domain')).map((monitor) => {
      const {
        id,
        organizationId: _o,
        credentialsSet: _c,
        options,
        createdAt: _a,
        updatedAt: _u,
        ...domain
      } = domainOf(monitor)
      return {
        id,
        name: domain.name,
        fields: { ...domain, ...options, ...rules(monitor) },
        secrets: monitor.credentialsSet ? credentialPaths('credentials', monitor.authType) : [],
      }
    })
  },
  create: async ({ ctx, caller, references }, body) =>
    (await createDomain({ ctx, caller, input: tagNames(body, references) as never })).id,
  update: async ({ ctx, caller, references }, id, body) => {
    await updateDomain({ ctx, caller, input: { id, ...tagNames(body, references) } as never })
  },
  remove: ({ ctx, caller }, id) => deleteDomain({ ctx, caller, input: { id } }),
})

export const serviceAdapter = monitorAdapter({
  kind: 'service',
  list: 'services',
  schema: createServiceInput,
  secretFields: (parsed) => {
    const config = (parsed.protocolConfig ?? {}) as Fields
    const secret = serviceSecrets(parsed.protocol as never, config as never) ?? {}
    const names = [...Object.keys(secret), 'credentials'].filter((name) => config[name] !== undefined)
    if (names.length === 0) return {}
    parsed.protocolConfig = Object.fromEntries(Object.entries(config).filter(([name]) => !names.includes(name)))
    return { protocolSecrets: pick(config, names) }
  },
  async read(ctx, caller) {
    return (await listOf(ctx, caller, 'service')).map((monitor) => {
      const { id, organizationId: _o, createdAt: _a, updatedAt: _u, ...service } = serviceOf(monitor)
      const { credentialsSet: _c, ...protocolConfig } = service.protocolConfig as Fields
      return {
        id,
        name: service.name,
        fields: { ...service, protocolConfig, ...rules(monitor) },
        secrets: monitor.credentialsSet ? credentialPaths('protocolConfig.credentials', monitor.authType) : [],
      }
    })
  },
  create: async ({ ctx, caller, references }, body) => {
    const { protocolSecrets, ...fields } = tagNames(body, references)
    const protocolConfig = { ...(fields.protocolConfig as Fields), ...(protocolSecrets as Fields | undefined) }
    return (await createService({ ctx, caller, input: { ...fields, protocolConfig } as never })).id
  },
  update: async ({ ctx, caller, references }, id, body, desired) => {
    const { protocolSecrets, ...fields } = tagNames(body, references)
    // The configuration is replaced whole: a changed one carries its write-only values again.
    const configChanged = fields.protocolConfig !== undefined || protocolSecrets !== undefined
    const protocolConfig = configChanged
      ? { ...(desired.fields.protocolConfig as Fields), ...(desired.secrets.protocolSecrets as Fields | undefined) }
      : undefined
    await updateService({
      ctx,
      caller,
      input: {
        id,
        ...fields,
        protocol: desired.fields.protocol,
        ...(protocolConfig ? { protocolConfig } : {}),
      } as never,
    })
  },
  remove: ({ ctx, caller }, id) => deleteService({ ctx, caller, input: { id } }),
})

export const heartbeatAdapter = monitorAdapter({
  kind: 'heartbeat',
  list: 'heartbeats',
  schema: createHeartbeatInput,
  secretFields: () => ({}),
  async read(ctx, caller) {
    return (await listHeartbeats({ ctx, caller, input: {} })).map((heartbeat) => ({
      id: heartbeat.id,
      name: heartbeat.name,
      fields: withoutUndefined(
        pick(heartbeat as unknown as Fields, [
          'name',
          'every',
          'cron',
          'timezone',
          'grace',
          'maxDuration',
          'tags',
          'enabled',
        ]),
      ),
    }))
  },
  create: async ({ ctx, caller, references }, body) =>
    (await createHeartbeat({ ctx, caller, input: tagNames(body, references) as never })).id,
  update: async ({ ctx, caller, references }, id, body) => {
    await updateHeartbeat({ ctx, caller, input: { id, changes: tagNames(body, references) as never } })
  },
  remove: ({ ctx, caller }, id) => deleteHeartbeat({ ctx, caller, input: { id } }),
})

export const syntheticAdapter = monitorAdapter({
  kind: 'synthetic',
  list: 'synthetics',
  schema: createSyntheticInput,
  secretFields: (parsed) => pick(parsed, ['secrets']),
  async read(ctx, caller) {
    return (await listSynthetics({ ctx, caller, input: {} })).map((synthetic) => ({
      id: synthetic.id,
      name: synthetic.name,
      secrets: synthetic.secretsSet ? secretNamesOf(synthetic.steps).map((name) => `secrets.${name}`) : [],
      fields: pick(synthetic as unknown as Fields, [
        'name',
        'type',
        'steps',
        'checkInterval',
        'timeout',
        'enabled',
        'locations',
        'tags',
        'failureThreshold',
        'quorumPercent',
      ]),
    }))
  },
  create: async ({ ctx, caller, references }, body) =>
    (await createSynthetic({ ctx, caller, input: tagNames(body, references) as never })).id,
  update: async ({ ctx, caller, references }, id, body) => {
    await updateSynthetic({ ctx, caller, input: { id, ...tagNames(body, references) } as never })
  },
  remove: ({ ctx, caller }, id) => deleteSynthetic({ ctx, caller, input: { id } }),
})
