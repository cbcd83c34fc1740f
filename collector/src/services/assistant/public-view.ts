import type { CollectorContext } from '../../context.ts'
import { listPublicStatusPages } from '../status-pages/list-public.ts'
import type { PublicStatusPage } from '../status-pages/schemas.ts'

type PublicComponent = PublicStatusPage['components'][number]
type PublicIncident = PublicStatusPage['incidents']['active'][number]

export interface PublicView {
  components: Array<PublicComponent & { organizationId: string }>
  incidents: Array<PublicIncident & { organizationId: string; active: boolean }>
}

/**
 * The public status pages as one view: a component or incident shown on several pages of an
 * organization counts once.
 */
export async function readPublicView(ctx: CollectorContext, organizationId: string | undefined): Promise<PublicView> {
  const pages = await listPublicStatusPages(ctx, organizationId)
  const components = new Map<string, PublicView['components'][number]>()
  const incidents = new Map<string, PublicView['incidents'][number]>()
  for (const { organizationId: owner, page } of pages) {
    for (const component of page.components) {
      components.set(JSON.stringify([owner, component.kind, component.name]), { ...component, organizationId: owner })
    }
    for (const [list, active] of [
      [page.incidents.active, true],
      [page.incidents.recent, false],
    ] as const) {
      for (const incident of list) {
        const key = JSON.stringify([owner, incident.title, incident.startedAt])
        if (!incidents.has(key)) incidents.set(key, { ...incident, organizationId: owner, active })
      }
    }
  }
  return { components: [...components.values()], incidents: [...incidents.values()] }
}

/** Up or degraded is working for the visitor; degraded means a probe location sees it down. */
export const isWorking = (status: string) => status === 'up' || status === 'degraded'

/** The component's last UTC day with checks, as the 24-hour uptime a public page can tell. */
export const latestUptime = (component: PublicComponent): number | null =>
  component.daily.findLast((day) => day.uptime !== null)?.uptime ?? null
