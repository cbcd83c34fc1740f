import { GuardError } from '@guard/shared'
import { organizationScope } from '../../access/organization.ts'
import { createMaintenanceWindow } from '../../maintenance-windows/create.ts'
import { deleteMaintenanceWindow } from '../../maintenance-windows/delete.ts'
import { listMaintenanceWindows } from '../../maintenance-windows/list.ts'
import { createMaintenanceWindowInput } from '../../maintenance-windows/schemas.ts'
import { updateMaintenanceWindow } from '../../maintenance-windows/update.ts'
import { addStatusPageComponent } from '../../status-pages/add-component.ts'
import { createStatusPage } from '../../status-pages/create.ts'
import { deleteStatusPage } from '../../status-pages/delete.ts'
import { listStatusPageRows, readComponents, toStatusPageView } from '../../status-pages/find.ts'
import { removeStatusPageComponent } from '../../status-pages/remove-component.ts'
import { createStatusPageInput } from '../../status-pages/schemas.ts'
import { updateStatusPage } from '../../status-pages/update.ts'
import type { KindAdapter, References, Scope } from '../kind.ts'
import { changedBody } from './monitors.ts'

const monitorKeyOf = (references: References, id: string) =>
  (['domain', 'service', 'heartbeat', 'synthetic'] as const).map((kind) => references.keyOf(kind, id)).find(Boolean) ??
  id

/**
 * One window per monitor it covers, as the organization stores them: plan expands an entry naming
 * several monitors into entries of one monitor each (maintenance.ts), so this sees one or none.
 */
export const maintenanceAdapter: KindAdapter = {
  kind: 'maintenance',
  list: 'maintenance',
  async read(ctx, caller) {
    return (await listMaintenanceWindows(ctx, caller)).map((window) => ({
      objectId: window.id,
      name: window.title,
      fields: (references) => ({
        title: window.title,
        startsAt: window.startsAt,
        endsAt: window.endsAt,
        recurrence: window.recurrence,
        until: window.until,
        ...(window.monitorId ? { monitors: [monitorKeyOf(references, window.monitorId)] } : {}),
      }),
    }))
  },
  desired(entry) {
    const { id: _id, monitors, ...body } = entry
    const parsed = createMaintenanceWindowInput.parse(body)
    const { monitorId: _m, ...fields } = parsed
    const iso = (value: string) => new Date(value).toISOString()
    return {
      fields: {
        ...fields,
        startsAt: iso(fields.startsAt),
        endsAt: iso(fields.endsAt),
        until: fields.until ? iso(fields.until) : null,
        ...(Array.isArray(monitors) && monitors.length > 0 ? { monitors } : {}),
      },
      secrets: {},
    }
  },
  async create({ ctx, caller, references }, desired) {
    const { monitors, ...fields } = desired.fields
    const window = await createMaintenanceWindow(ctx, caller, {
      ...fields,
      monitorId: windowMonitor(references, monitors),
    } as never)
    return window.id
  },
  async update(scope, objectId, changed, desired) {
    if (changed.includes('monitors')) {
      // A window keeps the monitor it covers: covering another is a new window.
      await maintenanceAdapter.remove(scope, objectId)
      await maintenanceAdapter.create(scope, desired)
      return
    }
    await updateMaintenanceWindow(scope.ctx, scope.caller, objectId, changedBody(changed, desired) as never)
  },
  remove: ({ ctx, caller }, objectId) => deleteMaintenanceWindow(ctx, caller, objectId),
}

function windowMonitor(references: References, monitors: unknown): string | null {
  const key = (monitors as string[] | undefined)?.[0]
  if (key === undefined) return null
  const monitor = references.monitorOf(key)
  if (!monitor) throw new GuardError('VALIDATION_ERROR', `monitors: unknown monitor id ${key}`)
  return monitor.id
}

type Component = { monitor?: string; group?: string; displayName?: string }

/** A page's components in order: removed and added again when they differ, so the order is the entry's. */
async function replaceComponents(scope: Scope, pageId: string, components: Component[]) {
  const { ctx, caller, references } = scope
  const page = { id: pageId, organization_id: organizationScope(caller, undefined) }
  for (const component of await readComponents(ctx.sql, page)) {
    await removeStatusPageComponent(ctx, caller, pageId, component.id)
  }
  for (const component of components) {
    const displayName = component.displayName === undefined ? {} : { displayName: component.displayName }
    if (component.group !== undefined) {
      const groupId = references.idOf('group', component.group)
      if (!groupId) throw new GuardError('VALIDATION_ERROR', `components: unknown group id ${component.group}`)
      await addStatusPageComponent(ctx, caller, pageId, 'group', { groupId, ...displayName })
    } else if (component.monitor !== undefined) {
      const monitor = references.monitorOf(component.monitor)
      if (!monitor) throw new GuardError('VALIDATION_ERROR', `components: unknown monitor id ${component.monitor}`)
      await addStatusPageComponent(ctx, caller, pageId, monitor.kind, {
        [`${monitor.kind}Id`]: monitor.id,
        ...displayName,
      })
    }
  }
}

export const statusPageAdapter: KindAdapter = {
  kind: 'status-page',
  list: 'statusPages',
  async read(ctx, caller) {
    const rows = await listStatusPageRows(ctx.sql, organizationScope(caller, undefined))
    return Promise.all(
      rows.map(async (row) => {
        const { id, componentCount: _c, createdAt: _a, updatedAt: _u, ...page } = toStatusPageView(row)
        const components = await readComponents(ctx.sql, row)
        return {
          objectId: id,
          name: page.slug,
          fields: (references: References) => ({
            ...page,
            components: components
              .filter((component) => component.kind !== 'device')
              .map((component) =>
                component.kind === 'group'
                  ? {
                      group: references.keyOf('group', component.subjectId) ?? component.subjectId,
                      displayName: component.displayName,
                    }
                  : { monitor: monitorKeyOf(references, component.subjectId), displayName: component.displayName },
              ),
          }),
        }
      }),
    )
  },
  desired(entry) {
    const { id: _id, components, ...body } = entry
    return { fields: { ...createStatusPageInput.parse(body), components: components ?? [] }, secrets: {} }
  },
  project(current, desired) {
    const wanted = (desired.components as Component[] | undefined) ?? []
    const components = ((current.components as Component[] | undefined) ?? []).map((component, index) =>
      wanted[index] && wanted[index].displayName === undefined ? { ...component, displayName: undefined } : component,
    )
    return { ...current, components: JSON.parse(JSON.stringify(components)) }
  },
  async create(scope, desired) {
    const { components, ...fields } = desired.fields
    const page = await createStatusPage(scope.ctx, scope.caller, fields as never)
    await replaceComponents(scope, page.id, components as Component[])
    return page.id
  },
  async update(scope, objectId, changed, desired) {
    const { components, ...fields } = changedBody(changed, desired)
    if (Object.keys(fields).length > 0) await updateStatusPage(scope.ctx, scope.caller, objectId, fields as never)
    if (components !== undefined) await replaceComponents(scope, objectId, components as Component[])
  },
  remove: ({ ctx, caller }, objectId) => deleteStatusPage(ctx, caller, objectId),
}
