import { parseUrlEncodedForm } from '@guard/shared'
import type { FastifyInstance } from 'fastify'

/**
 * application/x-www-form-urlencoded for the token, revoke and userinfo endpoints and the pages.
 * RFC 6749 §3.1 forbids repeating a parameter, so a repeat is refused instead of guessing which
 * value was meant; so is text that is not UTF-8.
 */
export function registerFormBody(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => {
    const fields: Record<string, string> = {}
    for (const [name, value] of parseUrlEncodedForm(body as Buffer)) {
      if (Object.hasOwn(fields, name)) {
        done(Object.assign(new Error(`parameter ${name} is repeated`), { statusCode: 400 }), undefined)
        return
      }
      fields[name] = value
    }
    done(null, fields)
  })
}

/** Whether the request body was a form; the token and revoke endpoints accept nothing else. */
export const isForm = (contentType: string | undefined) =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded'
