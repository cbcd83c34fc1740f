import type { FastifyReply, FastifyRequest } from 'fastify'
import { ACCOUNT_PATH } from './account.ts'
import { html, sendPage } from './html.ts'

/**
 * The quality the Accept header gives `type`, from its most specific matching range (RFC 9110
 * §12.5.1); 0 when nothing matches.
 */
function quality(accept: string, type: string): number {
  const [main, sub] = type.split('/')
  let specificity = -1
  let q = 0
  for (const part of accept.toLowerCase().split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim())
    const [rangeMain, rangeSub] = range.split('/')
    const matched =
      rangeMain === main && rangeSub === sub ? 2 : rangeMain === main && rangeSub === '*' ? 1 : range === '*/*' ? 0 : -1
    if (matched <= specificity) continue
    specificity = matched
    const weight = Number(params.find((param) => param.startsWith('q='))?.slice(2) ?? '1')
    q = Number.isFinite(weight) ? weight : 0
  }
  return q
}

/**
 * A person's browser ranks HTML above JSON; API clients, and tools that accept anything alike (curl),
 * do not, so they keep the problem+json answers the API documents.
 */
export const prefersHtml = (accept: string | undefined): boolean =>
  accept !== undefined && quality(accept, 'text/html') > quality(accept, 'application/json')

/**
 * What a browser gets for a path identity has no route for. Identity's root is the address
 * `guard start` used to print first, so it leads to the console (or, with none known, to the
 * account page, which asks for a sign-in); any other unknown path is a 404 page linking both.
 */
export function browserNotFound(consoleUrl: () => string | undefined) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0] ?? '/'
    const consolePage = consoleUrl()
    if (path === '/') return reply.redirect(consolePage ? `${consolePage}/` : ACCOUNT_PATH, 302)
    return sendPage(
      reply,
      404,
      'Not found',
      html`<h1>Nothing here</h1>
<p>This is Guard's sign-in service; it has no page at <code>${path}</code>.</p>
<ul>${consolePage ? html`<li><a href="${consolePage}/">Open the Guard console</a></li>` : html``}<li><a href="${ACCOUNT_PATH}">Sign in to your account</a></li></ul>`,
    )
  }
}
