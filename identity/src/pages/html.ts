import type { FastifyReply } from 'fastify'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)

/** Already-escaped markup, so nesting templates does not escape twice. */
export class Html {
  constructor(readonly markup: string) {}
  toString() {
    return this.markup
  }
}

/** A tagged template that escapes every interpolated value unless it is Html. */
export function html(strings: TemplateStringsArray, ...values: Array<string | Html | Html[]>): Html {
  let markup = strings[0] ?? ''
  values.forEach((value, index) => {
    const text = Array.isArray(value)
      ? value.map((part) => part.markup).join('')
      : value instanceof Html
        ? value.markup
        : escapeHtml(value)
    markup += text + (strings[index + 1] ?? '')
  })
  return new Html(markup)
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:4rem 1rem;padding:2rem;border-radius:8px;max-width:24rem;width:100%;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .3rem;font-weight:600}
input{width:100%;padding:.5rem;box-sizing:border-box;font-size:1rem}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}
.error{color:#a00;background:#fee;padding:.6rem;border-radius:4px}ul{padding-left:1.2rem}`

/**
 * Pages are plain forms with no script. The policy forbids framing (clickjacking of the consent
 * button), scripts and foreign resources; form-action is left open because the consent form's
 * answer redirects to the client's own address.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Html): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .send(
      html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Guard</title><style>${new Html(STYLE)}</style></head>
<body><main>${body}</main></body></html>`.markup,
    )
}

export function sendErrorPage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendPage(
    reply,
    status,
    'Sign-in error',
    html`<h1>Something is wrong with this sign-in link</h1>
<p class="error" role="alert">${message}</p><p>Go back to the application and try again.</p>`,
  )
}
