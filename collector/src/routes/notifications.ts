import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { authorOf } from '../services/incidents/find.ts'
import { LIVE_SUBJECT, type LiveNotification } from '../services/notifications/dispatch.ts'
import { listNotifications } from '../services/notifications/list.ts'
import { listDeliveries } from '../services/notifications/list-deliveries.ts'
import { markAllNotificationsRead, markNotificationRead } from '../services/notifications/mark-read.ts'
import {
  deliveryView,
  listDeliveriesQuery,
  notificationView,
  settingsView,
  updateSettingsInput,
} from '../services/notifications/schemas.ts'
import { sendTestNotification } from '../services/notifications/send-test.ts'
import {
  ensureSettings,
  getNotificationSettings,
  updateNotificationSettings,
} from '../services/notifications/settings.ts'
import { envelope, errorResponses, idParams, ok, openEventStream } from './common.ts'

const read = { access: { permission: 'notifications:read' as const } }
const write = { access: { permission: 'notifications:write' as const } }
const HEARTBEAT_MS = 15_000

export function notificationRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/notifications/settings',
    {
      config: read,
      schema: {
        description:
          'Your settings in your current organization (created with the defaults on first read, which makes you a recipient).',
        response: { 200: envelope(settingsView), ...errorResponses },
      },
    },
    async (request) => ok(await getNotificationSettings(ctx, callerOf(request))),
  )

  app.put(
    '/api/notifications/settings',
    {
      config: write,
      schema: {
        description:
          'Receiver URLs must be https (http only where private targets are allowed) and pass the SSRF guard. Setting webhookUrl the first time, or rotateWebhookSecret, returns webhookSecret once.',
        body: updateSettingsInput,
        response: { 200: envelope(settingsView), ...errorResponses, 422: errorResponses[400] },
      },
    },
    async (request) => ok(await updateNotificationSettings(ctx, callerOf(request), request.body)),
  )

  app.get(
    '/api/notifications',
    {
      config: read,
      schema: {
        description: 'Your in-app notifications, newest first, with the unread count.',
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(200).default(50),
          unreadOnly: z
            .enum(['true', 'false'])
            .optional()
            .transform((value) => value === 'true'),
        }),
        response: {
          200: z.object({ success: z.literal(true), data: z.array(notificationView), unreadCount: z.number().int() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await ensureSettings(ctx.sql, callerOf(request))
      return { success: true as const, ...(await listNotifications(ctx, callerOf(request), request.query)) }
    },
  )

  app.put(
    '/api/notifications/:id/read',
    {
      config: write,
      schema: {
        params: idParams,
        response: { 200: envelope(z.object({ id: z.string(), isRead: z.literal(true) })), ...errorResponses },
      },
    },
    async (request) => ok(await markNotificationRead(ctx, callerOf(request), request.params.id)),
  )

  app.put(
    '/api/notifications/read-all',
    {
      config: write,
      schema: { response: { 200: envelope(z.object({ marked: z.number().int() })), ...errorResponses } },
    },
    async (request) => ok(await markAllNotificationsRead(ctx, callerOf(request))),
  )

  app.get(
    '/api/notifications/deliveries',
    {
      config: read,
      schema: {
        description: 'Your delivery log per channel: status, attempts with status codes and errors.',
        querystring: listDeliveriesQuery,
        response: { 200: envelope(z.array(deliveryView)), ...errorResponses },
      },
    },
    async (request) => ok(await listDeliveries(ctx, callerOf(request), request.query)),
  )

  app.post(
    '/api/notifications/test',
    {
      config: write,
      schema: {
        description: 'Queues a test message on each configured channel; see /api/notifications/deliveries.',
        response: {
          202: envelope(z.object({ eventId: z.string(), channels: z.array(z.string()) })),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => reply.status(202).send(ok(await sendTestNotification(ctx, callerOf(request)))),
  )

  app.get(
    '/api/notifications/stream',
    {
      config: read,
      schema: {
        description:
          'Server-sent events: one `notification` event (data: a Notification as JSON, id: its id) per new in-app notification, when browserNotifications is on. The server ends the stream after maxSeconds; EventSource reconnects and sends Last-Event-ID to receive the ones missed since.',
        querystring: z.object({ maxSeconds: z.coerce.number().int().min(1).max(3600).default(600) }),
        response: {
          200: {
            description: 'The event stream',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const principal = authorOf(caller)
      await ensureSettings(ctx.sql, caller)
      const raw = openEventStream(reply)
      const write = (notification: z.infer<typeof notificationView>) =>
        raw.write(`id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`)
      const subscription = await ctx.bus.subscribe(LIVE_SUBJECT, (data) => {
        try {
          const live = JSON.parse(new TextDecoder().decode(data)) as LiveNotification
          if (live.organizationId === caller.organizationId && live.principal === principal) write(live.notification)
        } catch {
          // A malformed live message is dropped; the notification itself is stored and listed.
        }
      })
      const lastEventId = request.headers['last-event-id']
      if (typeof lastEventId === 'string' && lastEventId.length <= 64) {
        const missed = await listNotifications(ctx, caller, { limit: 200, after: lastEventId })
        for (const notification of missed.data.reverse()) write(notification)
      }
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS)
      const end = setTimeout(() => raw.end(), request.query.maxSeconds * 1000)
      raw.on('close', () => {
        clearInterval(heartbeat)
        clearTimeout(end)
        void subscription.stop()
      })
    },
  )
}
