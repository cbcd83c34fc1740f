import { makeBadge } from 'badge-maker'
import { z } from 'zod'
import type { PublicStatusPage } from './schemas.ts'

type Component = PublicStatusPage['components'][number]

export const BADGE_STYLES = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const
// Unknown parameters (cache busters people append to badge URLs) are ignored, not refused.
export const badgeQuery = z.object({
  style: z.enum(BADGE_STYLES).default('flat'),
  label: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .meta({ description: 'left-hand text; default: status or the component name' }),
})
export const componentBadgeQuery = badgeQuery.extend({
  type: z.enum(['status', 'uptime']).default('status').meta({ description: 'current state, or uptime over 30 days' }),
})

const OVERALL: Record<PublicStatusPage['status'], { message: string; color: string }> = {
  operational: { message: 'operational', color: 'brightgreen' },
  degraded: { message: 'degraded', color: 'yellow' },
  partial_outage: { message: 'partial outage', color: 'orange' },
  major_outage: { message: 'major outage', color: 'red' },
  unknown: { message: 'no data', color: 'lightgrey' },
}
const STATE: Record<Component['status'], { message: string; color: string }> = {
  up: { message: 'up', color: 'brightgreen' },
  degraded: { message: 'degraded', color: 'yellow' },
  down: { message: 'down', color: 'red' },
  unknown: { message: 'no data', color: 'lightgrey' },
}

const DAYS = 30

/**
 * Uptime over the last 30 UTC days: checks up over checks for monitors, the average share of the
 * day online for devices (days before enrolment do not count); null without data.
 */
export function uptime30d(component: Component): number | null {
  const days = component.daily.slice(-DAYS)
  if (component.kind === 'device') {
    const known = days.flatMap((day) => (day.uptime === null ? [] : [day.uptime]))
    return known.length ? Math.round((known.reduce((a, b) => a + b, 0) / known.length) * 100) / 100 : null
  }
  const checks = days.reduce((sum, day) => sum + day.checks, 0)
  const failures = days.reduce((sum, day) => sum + day.failures, 0)
  return checks ? Math.round(((checks - failures) / checks) * 10_000) / 100 : null
}

const uptimeColor = (uptime: number) =>
  uptime >= 99.9 ? 'brightgreen' : uptime >= 99 ? 'green' : uptime >= 95 ? 'yellow' : 'red'

export function pageBadge(page: PublicStatusPage, query: z.output<typeof badgeQuery>): string {
  return makeBadge({ label: query.label ?? 'status', ...OVERALL[page.status], style: query.style })
}

export function componentBadge(component: Component, query: z.output<typeof componentBadgeQuery>): string {
  const label = query.label ?? component.name
  if (query.type === 'status') return makeBadge({ label, ...STATE[component.status], style: query.style })
  const uptime = uptime30d(component)
  return makeBadge({
    label,
    message: uptime === null ? 'no data' : `${uptime}% (30d)`,
    color: uptime === null ? 'lightgrey' : uptimeColor(uptime),
    style: query.style,
  })
}
