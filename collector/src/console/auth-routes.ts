import { parseUrlEncodedForm } from '@guard/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { errorSchema, rateLimitedSchema } from '../routes/common.ts'
import type { ConsoleAuth } from './bff.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

const problemPage = (message: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in failed · Guard</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem">
<main><h1>Sign-in failed</h1><p>${escapeHtml(message)}</p><p><a href="/auth/login">Sign in again</a></p></main></body></html>`

/**
 * The problem page runs nothing and loads nothing (one inline style), no other site may frame it
 * (clickjacking its link), and its URL, which holds the authorization code, goes to nobody in a Referer.
 */
const PROBLEM_PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

const organization = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().optional(),
  role: z.string().optional(),
})

export const sessionResponse = z.union([
  z.object({
    signedIn: z.literal(true),
    user: z.object({ id: z.string(), email: z.string().optional(), name: z.string().optional() }),
    organizations: z.array(organization),
    csrfToken: z.string().describe('Send as X-CSRF-Token on every state-changing /api call made with the cookie'),
  }),
  z.object({ signedIn: z.literal(false) }),
])

const redirect = z.null().describe('Redirect (Location header)')

/**
 * The web console's backend-for-frontend routes (IETF "OAuth 2.0 for Browser-Based Applications",
 * BFF pattern): the browser navigates here; tokens never reach it.
 */
export async function consoleAuthRoutes(app: FastifyInstance, auth: ConsoleAuth): Promise<void> {
  await app.register(async (scope) => {
    // The sign-out button is a plain form post, so it works before any script has loaded.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, Object.fromEntries(parseUrlEncodedForm(body as Buffer)))
    })
    const routes = scope.withTypeProvider<ZodTypeProvider>()
    routes.get(
      '/auth/login',
      {
        schema: {
          summary: 'Console sign-in: start',
          description:
            "Starts the authorization code flow with PKCE at identity as the collector's confidential client and redirects the browser there. `returnTo` is a console path to come back to.",
          tags: ['console'],
          querystring: z.object({ returnTo: z.string().max(2048).optional() }),
          response: { 302: redirect, 400: errorSchema, 429: rateLimitedSchema, 503: errorSchema },
        },
      },
      async (request, reply) => auth.startLogin(request, reply, request.query.returnTo ?? '/'),
    )
    routes.get(
      '/auth/callback',
      {
        schema: {
          summary: 'Console sign-in: identity returns here',
          description:
            'Exchanges the code for tokens (kept server-side, sealed), sets the HttpOnly SameSite=Lax session cookie (Secure under https) and redirects to the console. A failed or foreign sign-in gets an HTML page saying why.',
          tags: ['console'],
          querystring: z.looseObject({
            code: z.string().max(4096).optional(),
            state: z.string().max(2048).optional(),
            error: z.string().max(200).optional(),
            error_description: z.string().max(2048).optional(),
          }),
          produces: ['text/html'],
          response: {
            303: redirect,
            400: z
              .union([z.string(), errorSchema])
              .describe('An HTML page saying why the sign-in failed, or the error body of a malformed request'),
            429: rateLimitedSchema,
            503: errorSchema,
          },
        },
      },
      async (request, reply) => {
        const outcome = await auth.finishLogin(request, reply)
        if (typeof outcome === 'string') {
          return reply
            .status(400)
            .headers(PROBLEM_PAGE_HEADERS)
            .type('text/html; charset=utf-8')
            .send(problemPage(outcome))
        }
        return reply.redirect(outcome.returnTo, 303)
      },
    )
    routes.get(
      '/auth/session',
      {
        schema: {
          summary: 'Console session: who is signed in',
          description:
            'The signed-in user, the organizations of their access token and the CSRF token of the session; `signedIn: false` without a live session. Refreshes the tokens at identity when due.',
          tags: ['console'],
          response: { 200: sessionResponse, 429: rateLimitedSchema },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store')
        return auth.describe(request)
      },
    )
    routes.post(
      '/auth/logout',
      {
        schema: {
          summary: 'Console sign-out',
          description:
            "Deletes the console session (server-side), revokes its refresh token and redirects to identity's end-session endpoint (RP-initiated logout), which comes back to the console. Needs the session's CSRF token as form field `csrf` or header X-CSRF-Token.",
          tags: ['console'],
          consumes: ['application/x-www-form-urlencoded', 'application/json'],
          body: z.looseObject({ csrf: z.string().max(200).optional() }).optional(),
          response: { 303: redirect, 400: errorSchema, 403: errorSchema, 429: rateLimitedSchema },
        },
      },
      async (request, reply) => {
        const header = request.headers['x-csrf-token']
        return auth.logout(request, reply, request.body?.csrf ?? (typeof header === 'string' ? header : undefined))
      },
    )
  })
}
