import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { readPageAccess } from '../services/status-pages/access/read-access.ts'
import { type MessageId, type PageText, pageText } from '../services/status-pages/i18n/page-text.ts'
import { escapeHtml, htmlStart } from '../services/status-pages/render-html.ts'
import { slugString } from '../services/status-pages/schemas.ts'
import { confirmSubscription, isConfirmable } from '../services/status-pages/subscribers/confirm.ts'
import { importSubscribers } from '../services/status-pages/subscribers/import.ts'
import { listSubscribers } from '../services/status-pages/subscribers/list.ts'
import { removeSubscriber } from '../services/status-pages/subscribers/remove.ts'
import {
  importSubscribersInput,
  subscribeAnswer,
  subscribeInput,
  subscriberSettings,
  subscriberView,
  tokenInput,
} from '../services/status-pages/subscribers/schemas.ts'
import { getSubscriberSettings, updateSubscriberSettings } from '../services/status-pages/subscribers/settings.ts'
import { subscribeToStatusPage } from '../services/status-pages/subscribers/subscribe.ts'
import { unsubscribeSubscriber } from '../services/status-pages/subscribers/unsubscribe.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok, rateLimitedSchema } from './common.ts'
import { responseFormat, sendCsv, wantsCsv } from './csv.ts'
import { minuteLimiter } from './minute-limiter.ts'

const read = { access: { permission: 'status-pages:read' as const } }
const write = { access: { permission: 'status-pages:write' as const } }
const CSV_COLUMNS = ['id', 'kind', 'target', 'componentIds', 'confirmed', 'confirmedAt', 'createdAt']

/** Operators see, export, import and remove the subscribers of their pages. */
export function statusPageSubscriberRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/status-pages/:id/subscribers',
    {
      config: read,
      schema: {
        description:
          'The page subscribers, oldest first, pending ones included. `format=csv` (or `Accept: text/csv`) answers a CSV attachment.',
        params: idParams,
        querystring: z.object({ format: responseFormat }),
        produces: ['application/json', 'text/csv'],
        response: { 200: z.union([envelope(z.array(subscriberView)), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const subscribers = await listSubscribers({
        ctx,
        caller: callerOf(request),
        input: { pageId: request.params.id },
      })
      if (!wantsCsv(request, request.query.format)) return ok(subscribers)
      return sendCsv(
        reply,
        'status-page-subscribers',
        CSV_COLUMNS,
        subscribers.map((subscriber) => ({ ...subscriber, componentIds: subscriber.componentIds.join(' ') })),
      )
    },
  )

  app.post(
    '/api/status-pages/:id/subscribers/import',
    {
      config: { ...write, bulk: true },
      schema: {
        description:
          'Imports e-mail subscribers the organization already has consent from: confirmed at once, without a confirmation mail; addresses already subscribed are skipped.',
        params: idParams,
        body: importSubscribersInput,
        response: {
          200: envelope(z.object({ imported: z.number().int(), skipped: z.number().int() })),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      ok(
        await importSubscribers({
          ctx,
          caller: callerOf(request),
          input: { pageId: request.params.id, ...request.body },
        }),
      ),
  )

  app.delete(
    '/api/status-pages/:id/subscribers/:subscriberId',
    {
      config: write,
      schema: {
        description: 'Removes a subscriber and the messages still queued for it.',
        params: z.object({ id: z.string().min(1).max(64), subscriberId: z.string().min(1).max(64) }),
        response: { 200: deleted, ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await removeSubscriber({
          ctx,
          caller: callerOf(request),
          input: { pageId: request.params.id, subscriberId: request.params.subscriberId },
        }),
      ),
  )

  app.get(
    '/api/status-pages/:id/subscriber-settings',
    { config: read, schema: { params: idParams, response: { 200: envelope(subscriberSettings), ...errorResponses } } },
    async (request) =>
      ok(await getSubscriberSettings({ ctx, caller: callerOf(request), input: { pageId: request.params.id } })),
  )

  app.put(
    '/api/status-pages/:id/subscriber-settings',
    {
      config: write,
      schema: {
        description: 'How many hours before a maintenance window starts the page subscribers are told of it.',
        params: idParams,
        body: subscriberSettings,
        response: { 200: envelope(subscriberSettings), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await updateSubscriberSettings({
          ctx,
          caller: callerOf(request),
          input: { pageId: request.params.id, settings: request.body },
        }),
      ),
  )
}

const page = (text: PageText, title: string, body: string) =>
  `<!doctype html>${htmlStart(text, null)}<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`

const LINK_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** A page of the subscriber flow in the status page's language: its title, then paragraphs or a form. */
function sendPage(reply: FastifyReply, status: number, text: PageText, title: MessageId, body: string) {
  return reply
    .status(status)
    .headers({
      'Cache-Control': 'no-store',
      'Content-Security-Policy': LINK_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    })
    .type('text/html; charset=utf-8')
    .send(page(text, text.text(title), body))
}

const paragraph = (text: PageText, id: MessageId) => `<p>${text.html(id)}</p>`

const invalidLink = (reply: FastifyReply, text: PageText) =>
  sendPage(reply, 404, text, 'link.invalid', paragraph(text, 'link.invalidText'))

/** A form posting back to the same address (its token stays in the query): GET never acts, since mail scanners fetch links. */
const buttonForm = (text: PageText, label: MessageId) =>
  `<form method="post"><button type="submit">${text.html(label)}</button></form>`

/** A form body: `email`, repeated `componentIds`; a one-click unsubscribe sends `List-Unsubscribe=One-Click`. */
function parseForm(body: Buffer) {
  const params = new URLSearchParams(body.toString('utf8'))
  return { email: params.get('email') ?? '', componentIds: params.getAll('componentIds') }
}

const htmlResponses = { 200: z.string(), 400: errorSchema, 404: z.string(), 429: rateLimitedSchema }

/**
 * Unauthenticated: visitors subscribe (JSON API and the page's form), and follow the confirm and
 * unsubscribe links of their mails. Subscribing is limited per client IP and minute on top of the
 * `public` class, since each accepted request may send a mail.
 */
export function publicSubscriberRoutes(fastify: FastifyInstance, ctx: CollectorContext): void {
  /** The page's language; an unknown or unpublished slug (an invalid link) reads English. */
  const textOf = async (slug: string) => pageText((await readPageAccess(ctx, slug))?.locale ?? 'en')
  const limit = minuteLimiter(ctx.env.GUARD_SUBSCRIBE_MAX_PER_MINUTE)
  const limitSubscribe = async (request: FastifyRequest, reply: FastifyReply) => {
    const decision = limit(request.ip)
    if (decision.allowed) return
    reply.header('Retry-After', decision.retryAfter)
    throw new GuardError('RATE_LIMIT_EXCEEDED', `More than ${decision.limit} subscriptions this minute`, {
      retry_after: decision.retryAfter,
    })
  }
  fastify.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer', bodyLimit: 64 * 1024 },
      (_r, body, done) => done(null, parseForm(body as Buffer)),
    )
    const app = scope.withTypeProvider<ZodTypeProvider>()
    app.post(
      '/api/status-pages/:id/subscribe',
      {
        preHandler: limitSubscribe,
        schema: {
          description:
            'Subscribes to a public page (no authentication; `id` is the page slug). `email` gets a confirmation link (double opt-in), and the answer is the same whether or not the address was subscribed; `webhookUrl` is subscribed at once and the answer holds its signing secret and unsubscribe link, shown only now. `componentIds` limits it to those components.',
          params: z.object({ id: z.string().min(1).max(64) }),
          body: subscribeInput,
          response: { 202: envelope(subscribeAnswer), 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
        },
      },
      async (request, reply) =>
        reply.status(202).send(
          ok(
            await subscribeToStatusPage({
              ctx,
              input: { slug: request.params.id, subscription: request.body },
            }),
          ),
        ),
    )

    app.post(
      '/status/:slug/subscribe',
      {
        preHandler: limitSubscribe,
        schema: {
          description:
            'The subscribe form of the HTML page (e-mail only): answers a page saying a confirmation mail is on its way.',
          params: z.object({ slug: slugString }),
          consumes: ['application/x-www-form-urlencoded'],
          body: z.object({
            email: z.string().max(320),
            componentIds: z.array(z.string().max(64)).max(100).default([]),
          }),
          produces: ['text/html'],
          response: { 200: z.string(), 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
        },
      },
      async (request, reply) => {
        await subscribeToStatusPage({ ctx, input: { slug: request.params.slug, subscription: request.body } })
        const text = await textOf(request.params.slug)
        return sendPage(
          reply,
          200,
          text,
          'subscribe.title',
          `${paragraph(text, 'subscribe.checkInbox')}<p><a href="/status/${escapeHtml(request.params.slug)}">${text.html('mail.viewPage')}</a></p>`,
        )
      },
    )

    const linkSchema = (description: string) => ({
      description,
      params: z.object({ slug: slugString }),
      querystring: tokenInput,
      produces: ['text/html'],
      response: htmlResponses,
    })

    app.get(
      '/status/:slug/confirm',
      {
        schema: linkSchema(
          'The confirmation link of a subscriber mail: shows a button that confirms (GET changes nothing).',
        ),
      },
      async (request, reply) => {
        const input = { slug: request.params.slug, token: request.query.token }
        const text = await textOf(request.params.slug)
        if (!(await isConfirmable({ ctx, input }))) return invalidLink(reply, text)
        return sendPage(reply, 200, text, 'confirm.question', buttonForm(text, 'confirm.button'))
      },
    )
    app.post(
      '/status/:slug/confirm',
      { schema: linkSchema('Confirms a subscription; the token works once.') },
      async (request, reply) => {
        const input = { slug: request.params.slug, token: request.query.token }
        const text = await textOf(request.params.slug)
        if (!(await confirmSubscription({ ctx, input }))) return invalidLink(reply, text)
        return sendPage(reply, 200, text, 'confirm.done', paragraph(text, 'confirm.doneText'))
      },
    )
    app.get(
      '/status/:slug/unsubscribe',
      { schema: linkSchema('The unsubscribe link of a subscriber message: shows a button (GET changes nothing).') },
      async (request, reply) => {
        const text = await textOf(request.params.slug)
        return sendPage(reply, 200, text, 'unsubscribe.question', buttonForm(text, 'unsubscribe.button'))
      },
    )
    app.post(
      '/status/:slug/unsubscribe',
      {
        schema: linkSchema(
          'Unsubscribes and deletes the subscriber: the button of the page, or a mail client one-click POST (RFC 8058, body `List-Unsubscribe=One-Click`).',
        ),
      },
      async (request, reply) => {
        const input = { slug: request.params.slug, token: request.query.token }
        const text = await textOf(request.params.slug)
        if (!(await unsubscribeSubscriber({ ctx, input }))) return invalidLink(reply, text)
        return sendPage(reply, 200, text, 'unsubscribe.done', paragraph(text, 'unsubscribe.doneText'))
      },
    )
  })
}
