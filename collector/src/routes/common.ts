import type { ServerResponse } from 'node:http'
import { PLAN_LIMIT_NAMES } from '@guard/shared'
import type { FastifyReply } from 'fastify'
import { z } from 'zod'

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data })
export const idParams = z.object({ id: z.string().min(1).max(64) })
export const ok = <T>(data: T) => ({ success: true as const, data })
/** What DELETE answers: the envelope with the removed id. */
export const deleted = envelope(z.object({ id: z.string(), deleted: z.literal(true) }))
/** The error body of every status except 401 and 429 (README "API decisions"). */
export const errorSchema = z.object({ success: z.literal(false), error: z.string(), message: z.string() })
export const unauthorizedSchema = z.object({ error: z.literal('UNAUTHORIZED'), message: z.string() })
export const rateLimitedSchema = z.object({
  error: z.literal('RATE_LIMIT_EXCEEDED'),
  message: z.string(),
  retry_after: z.number(),
})
/** 403: FORBIDDEN, or PLAN_LIMIT naming the plan's limit, its value and the plan (README "Plans"). */
export const forbiddenSchema = errorSchema.extend({
  limit: z.enum(PLAN_LIMIT_NAMES).optional().describe('PLAN_LIMIT only: the limit the write would pass'),
  value: z.number().optional().describe("PLAN_LIMIT only: the limit's value in the plan"),
  plan: z.string().optional().describe('PLAN_LIMIT only: the plan id'),
})
/** Error responses every authenticated route can give, so the OpenAPI document lists them. */
export const errorResponses = {
  400: errorSchema,
  401: unauthorizedSchema,
  403: forbiddenSchema,
  404: errorSchema,
  429: rateLimitedSchema,
  /** Identity's keys or an organization's plan could not be read. */
  503: errorSchema,
}

/**
 * Takes the response over as a server-sent event stream: no caching or transforming, no proxy
 * buffering, and EventSource told to reconnect after 3 s. The caller writes events and ends it.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  })
  raw.write('retry: 3000\n\n')
  return raw
}
