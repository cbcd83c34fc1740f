import { z } from 'zod'

/** An event id or organization id as events carry them. */
export const eventId = z.string().min(1).max(200)

/**
 * The platform's event envelope, version 1, for every `events.<type>`: who and when are here, the
 * facts of the event are in `data`. Consumers dedupe on `id`, stable for one change.
 */
export const eventEnvelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    v: z.literal(1),
    id: eventId,
    type: z.literal(type),
    occurredAt: z.iso.datetime(),
    organizationId: eventId,
    data,
  })
