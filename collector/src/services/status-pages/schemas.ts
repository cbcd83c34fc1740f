import { RESERVED_STATUS_PAGE_SLUGS, STATUS_PAGE_SLUG } from '@guard/shared'
import { z } from 'zod'
import { MONITOR_KINDS } from '../monitors/kinds/index.ts'
import { localeString } from './i18n/locales.ts'

export const slugString = z
  .string()
  .min(3)
  .max(64)
  .regex(STATUS_PAGE_SLUG, 'a slug is lowercase letters, digits and single hyphens, 3 to 64 characters')
  .refine((slug) => !RESERVED_STATUS_PAGE_SLUGS.includes(slug), 'this slug is reserved')

/** An http(s) address without credentials: anything else (javascript:, data:, user:pass@) is refused. */
const webUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
  .max(2048)
  // zod runs refinements after a failed format check too: an address that does not parse is left to it.
  .refine((value) => {
    const url = URL.parse(value)
    return url === null || (url.username === '' && url.password === '')
  }, 'must not carry credentials')

export const THEMES = ['auto', 'light', 'dark'] as const
export const statusPageLink = z.strictObject({ label: z.string().trim().min(1).max(60), url: webUrl })
export const timezoneString = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone })
      return true
    } catch {
      return false
    }
  }, 'must be an IANA time zone such as Europe/Berlin or UTC')

const appearance = {
  theme: z.enum(THEMES).meta({ description: 'auto follows the visitor (prefers-color-scheme)' }),
  accentColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #1a7f37')
    .nullable()
    .meta({ description: 'decorates the page header; null: none' }),
  logoUrl: webUrl.nullable().meta({ description: 'shown above the page name; loaded by visitors, never by Guard' }),
  links: z.array(statusPageLink).max(10).meta({ description: 'shown in the page header, e.g. home page, support' }),
  timezone: timezoneString.meta({ description: 'IANA zone the HTML page shows times in' }),
  locale: localeString,
  automaticIncidents: z.enum(['publish', 'draft']).meta({
    description:
      'publish: automatic incidents show at once; draft: only once published (PUT /api/incidents/{id}/public)',
  }),
}

export const createStatusPageInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    slug: slugString,
    description: z.string().max(2000).default(''),
    isPublic: z.boolean().default(false),
    theme: appearance.theme.default('auto'),
    accentColor: appearance.accentColor.default(null),
    logoUrl: appearance.logoUrl.default(null),
    links: appearance.links.default([]),
    timezone: appearance.timezone.default('UTC'),
    locale: appearance.locale.default('en'),
    automaticIncidents: appearance.automaticIncidents.default('publish'),
  })
  .strict()
export type CreateStatusPageInput = z.input<typeof createStatusPageInput>

export const updateStatusPageInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    slug: slugString.optional(),
    description: z.string().max(2000).optional(),
    isPublic: z.boolean().optional(),
    theme: appearance.theme.optional(),
    accentColor: appearance.accentColor.optional(),
    logoUrl: appearance.logoUrl.optional(),
    links: appearance.links.optional(),
    timezone: appearance.timezone.optional(),
    locale: appearance.locale.optional(),
    automaticIncidents: appearance.automaticIncidents.optional(),
  })
  .strict()
export type UpdateStatusPageInput = z.input<typeof updateStatusPageInput>

export const COMPONENT_KINDS = [...MONITOR_KINDS, 'group'] as const
export type ComponentKind = (typeof COMPONENT_KINDS)[number]

const displayName = z.string().trim().min(1).max(100).optional()
/** The body adding a component of one kind: `{ domainId }`, `{ syntheticId }`… and a display name. */
export const addComponentInput = <Kind extends ComponentKind>(kind: Kind) =>
  z.object({ [`${kind}Id`]: z.string().min(1).max(64), displayName }).strict() as z.ZodObject<
    { [K in `${Kind}Id`]: z.ZodString } & { displayName: typeof displayName },
    z.core.$strict
  >
export const addComponentInputs = Object.fromEntries(
  COMPONENT_KINDS.map((kind) => [kind, addComponentInput(kind)]),
) as unknown as { [K in ComponentKind]: ReturnType<typeof addComponentInput<K>> }

export const orderComponentsInput = z
  .object({ componentIds: z.array(z.string().min(1).max(64)).min(1).max(500) })
  .strict()
  .refine((input) => new Set(input.componentIds).size === input.componentIds.length, {
    message: 'componentIds must not repeat',
    path: ['componentIds'],
  })

export const statusPageComponent = z.object({
  id: z.string(),
  kind: z.enum(COMPONENT_KINDS),
  subjectId: z.string(),
  displayName: z.string(),
  position: z.number().int(),
})
export type StatusPageComponent = z.infer<typeof statusPageComponent>

export const statusPageView = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  isPublic: z.boolean(),
  theme: z.enum(THEMES),
  accentColor: z.string().nullable(),
  logoUrl: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  timezone: z.string(),
  locale: localeString,
  automaticIncidents: z.enum(['publish', 'draft']),
  componentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type StatusPageView = z.infer<typeof statusPageView>

export const statusPageDetail = statusPageView.extend({ components: z.array(statusPageComponent) })
export type StatusPageDetail = z.infer<typeof statusPageDetail>

export const componentStatus = z.enum(['up', 'down', 'degraded', 'unknown'])
export const overallStatus = z.enum(['operational', 'degraded', 'partial_outage', 'major_outage', 'unknown'])

const day = z.object({
  date: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
  uptime: z.number().nullable().meta({ description: 'percent of checks up that day; null without checks' }),
  checks: z.number().int(),
  failures: z.number().int(),
})

const locationSeries = z.object({
  location: z.string(),
  status: componentStatus,
  points: z
    .array(z.object({ t: z.string(), avg: z.number() }))
    .meta({ description: 'average response time in ms per 10 minutes, oldest first' }),
})

export const publicComponent = z.object({
  name: z.string(),
  kind: z.enum(COMPONENT_KINDS),
  status: componentStatus,
  uptime90d: z.number().nullable(),
  daily: z.array(day).meta({
    description:
      '90 UTC days, oldest first. Devices: uptime is the share of the day online (from their offline incidents), checks and failures 0. Groups: empty (their state is derived, not measured)',
  }),
  locations: z
    .array(locationSeries)
    .meta({ description: 'last 24 h per probe location; empty for devices and heartbeats (no probe checks them)' }),
  heartbeat: z
    .object({
      lastPingAt: z.string().nullable().meta({ description: 'when the job last reported; null before its first ping' }),
      nextExpectedAt: z
        .string()
        .nullable()
        .meta({ description: 'when its next ping is expected (before the grace time); null while paused' }),
    })
    .optional()
    .meta({ description: 'heartbeat components only: a job reports in, so its times say more than a latency' }),
  members: z
    .array(
      z.object({
        name: z.string(),
        kind: z.enum(COMPONENT_KINDS),
        status: componentStatus,
      }),
    )
    .optional()
    .meta({
      description:
        "group components only: the group's direct members and child groups, by name; a paused member reads unknown",
    }),
})

const publicUpdate = z.object({ status: z.string(), message: z.string(), createdAt: z.string() })
export const publicIncident = z.object({
  key: z.string().meta({ description: 'permanent address: /status/{slug}/incidents/{key}' }),
  title: z.string(),
  status: z.string(),
  severity: z.string(),
  impact: z.string(),
  startedAt: z.string(),
  resolvedAt: z.string().nullable(),
  components: z.array(z.string()).meta({ description: 'names of the page components it affects' }),
  updates: z.array(publicUpdate),
})

export const publicMaintenance = z.object({
  title: z.string(),
  startsAt: z.string().meta({ description: 'of the ongoing or next occurrence for recurring windows' }),
  endsAt: z.string(),
  recurrence: z.enum(['none', 'daily', 'weekly']),
  status: z.enum(['ongoing', 'upcoming']),
  components: z.array(z.string()),
})

export const publicStatusPage = z.object({
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  theme: z.enum(THEMES),
  accentColor: z.string().nullable(),
  logoUrl: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  timezone: z.string(),
  locale: localeString,
  status: overallStatus,
  generatedAt: z.string(),
  components: z.array(publicComponent),
  incidents: z.object({ active: z.array(publicIncident), recent: z.array(publicIncident) }),
  maintenance: z.array(publicMaintenance).meta({ description: 'ongoing and upcoming windows' }),
})
export type PublicStatusPage = z.infer<typeof publicStatusPage>
