import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LOGO_SVG, PRODUCT_NAME } from '@guard/shared/brand'
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

/** The console's design tokens, so the sign-in, consent and account pages are the same product. */
const TOKENS = readFileSync(fileURLToPath(import.meta.resolve('@guard/shared/brand/tokens.css')), 'utf8')

const STYLE = `${TOKENS}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:3rem 1rem}
.product{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.2rem;color:var(--text);text-decoration:none;margin-bottom:1.25rem}
main{background:var(--surface);border:1px solid var(--border);padding:2rem;border-radius:var(--radius);max-width:26rem;width:100%;box-shadow:var(--shadow)}
h1{font-size:1.35rem;margin:0 0 1rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
a{color:var(--accent)}p,li{color:var(--text)}.muted{color:var(--muted)}
label{display:block;margin:1rem 0 .3rem;font-weight:600}
input{width:100%;padding:.55rem .65rem;font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--border);border-radius:6px}
input:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font:inherit;font-weight:600;cursor:pointer;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text)}
button.secondary{background:transparent;color:var(--text);border-color:var(--border)}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
.error{color:var(--down);border:1px solid var(--down);padding:.6rem .75rem;border-radius:6px}
ul{padding-left:1.2rem}code{font-size:.9em}
footer{margin-top:1.25rem;font-size:.85rem;color:var(--muted)}`

/**
 * Pages are plain forms, with no script except identity's own passkey scripts on the pages that
 * offer passkeys. The policy forbids framing (clickjacking of the consent button), inline and
 * foreign scripts and foreign resources; form-action is left open because the consent form's
 * answer redirects to the client's own address.
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: Html,
  options: { scripts?: readonly string[] } = {},
): FastifyReply {
  const scripts = options.scripts ?? []
  const scriptPolicy = scripts.length > 0 ? "; script-src 'self'; connect-src 'self'" : ''
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'${scriptPolicy}`,
    )
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .send(
      html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${PRODUCT_NAME}</title><style>${new Html(STYLE)}</style></head>
<body><header class="product">${new Html(LOGO_SVG)}<span>${PRODUCT_NAME}</span></header><main>${body}</main>
<footer>${PRODUCT_NAME} · uptime and infrastructure monitoring</footer>${scripts.map((src) => html`<script src="${src}"></script>`)}</body></html>`
        .markup,
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
