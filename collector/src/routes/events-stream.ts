import { GuardError, type GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { eventsAfter, mayRead, readEvent } from '../services/events/live.ts'
import { authorOf } from '../services/incidents/find.ts'
import { LIVE_SUBJECT, type LiveNotification } from '../services/notifications/dispatch.ts'
import { errorResponses, openEventStream } from './common.ts'

/**
 * The console's live feed: the organization's platform events as they are published on the bus
 * (every replica hears every event) and the caller's new in-app notifications. Each platform event
 * is an SSE event named after its type with the event's id; a client that reconnects with
 * Last-Event-ID first gets what it missed from the outbox, or a `resync` event when that id is
 * too old. The stream ends after maxSeconds, and at the next keep-alive once the credential it was
 * opened with is no longer good (a signed-out console session, a revoked key, an expired token).
 */
export function eventStreamRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/events/stream',
    {
      config: {
        access: { anyOf: ['domains:read', 'services:read', 'devices:read', 'incidents:read', 'notifications:read'] },
      },
      schema: {
        description:
          "Server-sent events of the organization: `monitor.down`, `monitor.up`, `certificate.expiring`, `certificate.renewed`, `domain.expiring`, `domain.renewed`, `incident.opened`, `incident.updated`, `incident.resolved`, `device.offline`, `device.online`, `device.health` (data: the event envelope `{ v, id, type, occurredAt, organizationId, data }`, id: the event id), only of the kinds the caller may read; `notification.created` (data: a Notification, no id) for the caller's new in-app notifications; `resync` when Last-Event-ID is too old to replay (reload everything). A comment line every 15 s keeps proxies from closing it; the server ends the stream after maxSeconds and EventSource reconnects with Last-Event-ID.",
        querystring: z.object({
          organizationId: z
            .string()
            .min(1)
            .max(128)
            .optional()
            .describe("One of the caller's organizations; default: the request's"),
          maxSeconds: z.coerce.number().int().min(1).max(3600).default(300),
        }),
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const organizationId = request.query.organizationId ?? caller.organizationId
      if (!caller.organizationIds.includes(organizationId)) {
        throw new GuardError('FORBIDDEN', 'You are not a member of that organization')
      }
      const principal = authorOf(caller)
      const seesNotifications = caller.principal.kind === 'user'
      const raw = openEventStream(reply)
      const send = (type: string, data: unknown, id?: string) =>
        raw.write(`${id ? `id: ${id}\n` : ''}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`)
      // Live events wait while missed ones replay, so the order stays the order they happened.
      let replaying = true
      const held: Array<() => void> = []
      const deliver = (write: () => void) => (replaying ? held.push(write) : write())
      const seen = new Set<string>()
      const subscriptions = [
        await ctx.bus.subscribe('events.>', (data) => {
          const event = readEvent(data)
          if (!event || event.organizationId !== organizationId || !mayRead(caller, event.type)) return
          deliver(() => {
            if (seen.has(event.id)) return
            seen.add(event.id)
            if (seen.size > 2000) seen.clear()
            send(event.type, event, event.id)
          })
        }),
        ...(seesNotifications
          ? [
              await ctx.bus.subscribe(LIVE_SUBJECT, (data) => {
                try {
                  const live = JSON.parse(new TextDecoder().decode(data)) as LiveNotification
                  if (live.organizationId !== organizationId || live.principal !== principal) return
                  deliver(() => send('notification.created', live.notification))
                } catch {
                  // A malformed live message is dropped; the notification itself is stored and listed.
                }
              }),
            ]
          : []),
      ]
      const stillAuthorized = request.stillAuthorized
      const heartbeat = setInterval(async () => {
        const good = !stillAuthorized || (await stillAuthorized())
        if (raw.writableEnded) return
        if (good) raw.write(': keep-alive\n\n')
        else raw.end()
      }, ctx.env.GUARD_EVENT_STREAM_KEEPALIVE_MS)
      const end = setTimeout(() => raw.end(), request.query.maxSeconds * 1000)
      raw.on('close', () => {
        clearInterval(heartbeat)
        clearTimeout(end)
        for (const subscription of subscriptions) void subscription.stop()
      })
      const lastEventId = request.headers['last-event-id']
      try {
        if (typeof lastEventId === 'string' && lastEventId.length > 0 && lastEventId.length <= 200) {
          const missed = await eventsAfter(ctx.sql, organizationId, lastEventId)
          if (!missed) send('resync', { reason: 'Last-Event-ID is no longer known; reload' })
          for (const event of missed ?? []) {
            if (!mayRead(caller, event.type) || seen.has(event.id)) continue
            seen.add(event.id)
            send(event.type, event, event.id)
          }
        }
      } catch (error) {
        request.log.warn({ err: error }, 'could not replay missed events')
        send('resync', { reason: 'missed events could not be read; reload' })
      }
      replaying = false
      for (const write of held.splice(0)) write()
    },
  )
}
