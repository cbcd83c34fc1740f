import type { GuardFastify } from '@guard/shared'
import type { OAuthContext } from './context.ts'
import { jsonWebKeySet } from './schemas.ts'

export function jwksRoute(app: GuardFastify, ctx: OAuthContext): void {
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        summary: 'Public signing keys (current and previous)',
        tags: ['oauth'],
        response: { 200: jsonWebKeySet },
      },
    },
    async (_request, reply) => {
      // Short enough that verifiers see a rotation within minutes; they refetch on an unknown kid anyway.
      reply.header('Cache-Control', 'public, max-age=300')
      return { keys: await ctx.keys.published() }
    },
  )
}
