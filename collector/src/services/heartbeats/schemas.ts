import { errorKind, pingType } from '@guard/shared'
import { z } from 'zod'
import { dependencyDetailFields } from '../dependencies/schemas.ts'
import { monitorName, tags } from '../monitors/schemas.ts'
import { cronProblem, isTimeZone } from './schedule.ts'

/** Seconds between expected runs: 5 s (tests, busy workers) to a year. */
const every = z.number().int().min(5).max(31_536_000)
const cron = z.string().trim().min(9).max(200)
const timezone = z.string().min(1).max(64).refine(isTimeZone, 'must be an IANA time zone such as Europe/Amsterdam')
/** How late a ping may be before the run counts as missed. */
const grace = z.number().int().min(0).max(604_800)
/** Longest run, from its start ping to its end, before it counts as too long. */
const maxDuration = z.number().int().min(1).max(604_800)

const scheduleRefinement = (input: { every?: unknown; cron?: unknown }, ctx: z.RefinementCtx) => {
  if (input.every !== undefined && input.cron !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'give either every or cron, not both', path: ['cron'] })
  }
}

export const createHeartbeatInput = z
  .object({
    name: monitorName,
    every: every.optional().meta({ description: 'Seconds between runs; or give `cron`.' }),
    cron: cron.optional().meta({
      description: 'A cron expression (5 fields, or 6 with seconds) in `timezone`; or give `every`.',
      examples: ['0 3 * * *'],
    }),
    timezone: timezone
      .default('UTC')
      .meta({ description: 'IANA time zone of `cron`.', examples: ['Europe/Amsterdam'] }),
    grace: grace.default(60).meta({ description: 'Seconds a ping may be late before the run counts as missed.' }),
    maxDuration: maxDuration.optional().meta({
      description: 'Seconds a run may take from its `/start` ping; a longer run is down with `too_long`.',
    }),
    tags: tags.default([]),
    enabled: z.boolean().default(true),
  })
  .strict()
  .superRefine((input, ctx) => {
    scheduleRefinement(input, ctx)
    if (input.every === undefined && input.cron === undefined) {
      ctx.addIssue({ code: 'custom', message: 'give every (seconds) or cron', path: ['every'] })
    }
    if (input.cron !== undefined) {
      const problem = cronProblem(input.cron, input.timezone)
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['cron'] })
    }
  })
export type CreateHeartbeatInput = z.input<typeof createHeartbeatInput>

/** A partial change: giving `every` replaces a cron schedule and the other way round; `maxDuration: null` removes it. */
export const updateHeartbeatInput = z
  .object({
    name: monitorName.optional(),
    every: every.optional(),
    cron: cron.optional(),
    timezone: timezone.optional(),
    grace: grace.optional(),
    maxDuration: maxDuration.nullable().optional(),
    tags: tags.optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .superRefine(scheduleRefinement)
export type UpdateHeartbeatInput = z.input<typeof updateHeartbeatInput>

export interface HeartbeatRecord {
  id: string
  organizationId: string
  name: string
  every: number | null
  cron: string | null
  timezone: string
  grace: number
  maxDuration: number | null
  tags: string[]
  enabled: boolean
  token: string
  nextDueAt: string
  lastPingAt: string | null
  lastPingType: string | null
  runningSince: string | null
  createdAt: string
  updatedAt: string
}

export const heartbeatView = z.object({
  id: z.string(),
  name: z.string(),
  every: z.number().nullable(),
  cron: z.string().nullable(),
  timezone: z.string(),
  grace: z.number(),
  maxDuration: z.number().nullable(),
  tags: z.array(z.string()),
  enabled: z.boolean(),
  status: z.enum(['up', 'down', 'unknown']),
  pingUrl: z.string().meta({
    description:
      'Where the job reports: GET/POST/HEAD this URL on success, `/start` when a run begins, `/fail` on failure, `/{exitCode}` with the exit status. Not a credential for anything else; regenerate it to revoke it.',
  }),
  nextExpectedAt: z.string().meta({ description: 'When the next ping is expected; down after this plus `grace`.' }),
  nextExpectedTimes: z.array(z.string()).meta({ description: 'The next five expected times after now.' }),
  lastPing: z.object({ at: z.string(), type: pingType }).nullable(),
  runningSince: z.string().nullable().meta({ description: 'Start of the oldest run still open.' }),
  lastError: z.object({ kind: errorKind, message: z.string(), at: z.string() }).optional(),
  groupId: z.string().nullable().optional().describe('The group the heartbeat is in; null: none'),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...dependencyDetailFields,
})
export type HeartbeatView = z.infer<typeof heartbeatView>

export const heartbeatPingEntry = z.object({
  id: z.string(),
  type: pingType,
  exitCode: z.number().nullable(),
  rid: z.string(),
  receivedAt: z.string(),
  durationMs: z.number().nullable(),
  method: z.string(),
  sourceIp: z.string(),
  userAgent: z.string(),
  body: z.string(),
})
export type HeartbeatPingEntry = z.infer<typeof heartbeatPingEntry>
