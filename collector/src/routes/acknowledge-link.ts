import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../context.ts'
import { acknowledgeIncident } from '../services/incidents/acknowledge.ts'
import { verifyAcknowledgeToken } from '../services/incidents/acknowledge-link.ts'
import { resolveIncidentByCallback } from '../services/notifications/channels/callback.ts'

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`

/** Someone holding the link, acting for the organization the link was made for, on incidents only. */
const linkCaller = (organizationId: string, via: string): Caller => ({
  principal: { kind: 'user', id: via },
  organizationId,
  organizationIds: [organizationId],
  permissions: ['incidents:write'],
})

// In the query: fastify caps path parameters at 100 characters, and the token is longer.
const tokenQuery = z.object({ token: z.string().min(1).max(2000) })

/**
 * The acknowledge link sent in messages. GET only shows a button: mail scanners and chat previews
 * fetch links, and must not acknowledge anything; the POST of the button does.
 */
export function acknowledgeLinkRoutes(app: FastifyInstance, ctx: CollectorContext): void {
  app.get('/ack', async (request, reply) => {
    const { token } = tokenQuery.parse(request.query)
    const claims = verifyAcknowledgeToken(ctx.sealKey, token)
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8')
    if (!claims)
      return reply.status(404).send(page('Link not valid', '<p>This acknowledge link is not valid or has expired.</p>'))
    return page(
      'Acknowledge this incident?',
      `<p>Acknowledging stops the escalation and tells everyone who was notified that someone is on it.</p><form method="post"><button type="submit">Acknowledge</button></form>`,
    )
  })
  app.post('/ack', async (request, reply) => {
    const { token } = tokenQuery.parse(request.query)
    const claims = verifyAcknowledgeToken(ctx.sealKey, token)
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8')
    if (!claims)
      return reply.status(404).send(page('Link not valid', '<p>This acknowledge link is not valid or has expired.</p>'))
    const incident = await acknowledgeIncident({
      ctx,
      caller: linkCaller(claims.organizationId, claims.via),
      input: { id: claims.incidentId, by: `link:${claims.via}` },
    })
    return page(
      incident.status === 'resolved' ? 'Already resolved' : 'Acknowledged',
      `<p>${escapeHtml(incident.title)}: ${escapeHtml(incident.status)}${incident.acknowledgedBy ? ` (acknowledged by ${escapeHtml(incident.acknowledgedBy)})` : ''}.</p>`,
    )
  })
  // Callers sign the bytes they sent (PagerDuty's X-PagerDuty-Signature): the body stays a string here.
  app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers()
    hooks.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    )
    hooks.post('/hooks/notification-channels/:id', async (request, reply) => {
      const { id } = z.object({ id: z.string().min(1).max(64) }).parse(request.params)
      const handled = await resolveIncidentByCallback(ctx, {
        channelId: id,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : value,
          ]),
        ),
        rawBody: typeof request.body === 'string' ? request.body : '',
      })
      return reply.status(handled === 'unknown channel' ? 404 : 202).send({ result: handled })
    })
  })
}
