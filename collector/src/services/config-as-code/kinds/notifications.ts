import { GuardError } from '@guard/shared'
import { createChannel } from '../../notifications/channels/create.ts'
import { deleteChannel } from '../../notifications/channels/delete.ts'
import { listChannels } from '../../notifications/channels/list.ts'
import { createChannelInput } from '../../notifications/channels/schemas.ts'
import { updateChannel } from '../../notifications/channels/update.ts'
import { isProviderId, providerOf } from '../../notifications/providers/index.ts'
import { deleteRoute } from '../../notifications/routing/delete-route.ts'
import { listRoutes } from '../../notifications/routing/list-routes.ts'
import { saveRoute } from '../../notifications/routing/save-route.ts'
import { routeInput } from '../../notifications/routing/schemas.ts'
import type { DesiredFields, Fields, KindAdapter, References } from '../kind.ts'
import { changedBody } from './monitors.ts'

/** A channel's provider settings split into what the API shows and its write-only secret fields. */
function splitConfig(provider: string, config: Fields) {
  const secretNames: readonly string[] = isProviderId(provider) ? providerOf(provider).secretFields : []
  const shown = Object.fromEntries(Object.entries(config).filter(([name]) => !secretNames.includes(name)))
  const secret = Object.fromEntries(Object.entries(config).filter(([name]) => secretNames.includes(name)))
  return { shown, secret }
}

const channelConfig = (desired: DesiredFields): Fields => ({
  ...(desired.fields.config as Fields),
  ...(desired.secrets.secretConfig as Fields | undefined),
})

export const channelAdapter: KindAdapter = {
  kind: 'channel',
  list: 'channels',
  async read(ctx, caller) {
    return (await listChannels({ ctx, caller, input: {} })).map((channel) => ({
      objectId: channel.id,
      name: channel.name,
      secrets: channel.secretsSet.map((field) => `config.${field}`),
      fields: () => ({
        name: channel.name,
        provider: channel.provider,
        config: channel.config,
        enabled: channel.enabled,
        quietHours: channel.quietHours,
      }),
    }))
  },
  desired(entry) {
    const { id: _id, addToDefaultRoute: _default, ...body } = entry
    const parsed = createChannelInput.parse(body)
    const { shown, secret } = splitConfig(parsed.provider, parsed.config)
    return {
      fields: {
        name: parsed.name,
        provider: parsed.provider,
        config: shown,
        enabled: parsed.enabled,
        quietHours: parsed.quietHours,
      },
      secrets: Object.keys(secret).length > 0 ? { secretConfig: secret } : {},
    }
  },
  async create({ ctx, caller }, desired) {
    // Code names the routes a channel is on: a channel joins the default route only when a route says so.
    const channel = await createChannel({
      ctx,
      caller,
      input: { ...desired.fields, config: channelConfig(desired), addToDefaultRoute: false } as never,
    })
    return channel.id
  },
  async update({ ctx, caller }, objectId, changed, desired) {
    if (changed.includes('provider')) {
      throw new GuardError('VALIDATION_ERROR', 'provider: a channel keeps its provider; give the entry a new id')
    }
    const { provider: _provider, config: _config, secretConfig: _secret, ...fields } = changedBody(changed, desired)
    const configChanged = changed.includes('config') || changed.includes('secretConfig')
    await updateChannel({
      ctx,
      caller,
      input: { id: objectId, ...fields, ...(configChanged ? { config: channelConfig(desired) } : {}) } as never,
    })
  },
  remove: async ({ ctx, caller }, objectId) => {
    await deleteChannel({ ctx, caller, input: { id: objectId } })
  },
}

const idsOf = (references: References, kind: 'channel', keys: unknown, field: string) =>
  ((keys as string[] | undefined) ?? []).map((key) => {
    const id = references.idOf(kind, key)
    if (!id) throw new GuardError('VALIDATION_ERROR', `${field}: unknown ${kind} id ${key}`)
    return id
  })

const monitorIdsOf = (references: References, keys: unknown) =>
  ((keys as string[] | undefined) ?? []).map((key) => {
    const monitor = references.monitorOf(key)
    if (!monitor) throw new GuardError('VALIDATION_ERROR', `selector.monitors: unknown monitor id ${key}`)
    return monitor.id
  })

/** The route body of saveRoute from a route's compared fields: channels and monitors by object id. */
function routeBody(fields: Fields, references: References): Fields {
  const { channels, selector, ...body } = fields
  const { monitors, ...rest } = (selector as Fields | undefined) ?? {}
  return {
    ...body,
    channelIds: idsOf(references, 'channel', channels, 'channels'),
    selector: { ...rest, ...(monitors === undefined ? {} : { monitorIds: monitorIdsOf(references, monitors) }) },
  }
}

export const routeAdapter: KindAdapter = {
  kind: 'route',
  list: 'routes',
  unordered: ['channels'],
  async read(ctx, caller) {
    const routes = (await listRoutes({ ctx, caller, input: {} })).filter((route) => !route.isDefault)
    return routes.map((route) => ({
      objectId: route.id,
      name: route.name,
      fields: (references) => {
        const { monitorIds, ...selector } = route.selector
        return {
          name: route.name,
          position: route.position,
          selector: {
            ...selector,
            ...(monitorIds
              ? {
                  monitors: monitorIds.map(
                    (id) =>
                      (['domain', 'service', 'heartbeat', 'synthetic'] as const)
                        .map((kind) => references.keyOf(kind, id))
                        .find(Boolean) ?? id,
                  ),
                }
              : {}),
          },
          channels: route.channelIds.map((id) => references.keyOf('channel', id) ?? id).sort(),
          reminderMinutes: route.reminderMinutes,
          continueMatching: route.continueMatching,
          enabled: route.enabled,
        }
      },
    }))
  },
  desired(entry) {
    const { id: _id, channels, selector, ...body } = entry
    const { monitors, ...rest } = (selector as Fields | undefined) ?? {}
    const parsed = routeInput.parse({ ...body, selector: rest })
    const { channelIds: _c, escalationPolicyId: _e, ...fields } = parsed
    return {
      fields: {
        ...fields,
        selector: { ...parsed.selector, ...(monitors === undefined ? {} : { monitors }) },
        channels: [...((channels as string[] | undefined) ?? [])].sort(),
      },
      secrets: {},
    }
  },
  async create({ ctx, caller, references }, desired) {
    const route = await saveRoute({ ctx, caller, input: routeBody(desired.fields, references) as never })
    return route.id
  },
  async update({ ctx, caller, references }, objectId, _changed, desired) {
    // saveRoute replaces a route whole.
    await saveRoute({ ctx, caller, input: { id: objectId, ...routeBody(desired.fields, references) } as never })
  },
  remove: async ({ ctx, caller }, objectId) => {
    await deleteRoute({ ctx, caller, input: { id: objectId } })
  },
}
