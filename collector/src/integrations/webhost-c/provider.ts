import { GuardError } from '@guard/shared'
import { z } from 'zod'
import type { CollectorEnv } from '../../env.ts'
import { httpOptionsOf, parseAnswer } from '../http.ts'
import { requestToken, type TokenAnswer } from '../oauth.ts'
import { type IntegrationProvider, MAX_PAGES, type ProviderItem, type TokenGrant } from '../provider.ts'

const ID = 'webhost-c'

const user = z.object({
  user: z.object({ id: z.string().min(1), username: z.string().min(1).optional(), email: z.string().optional() }),
})
const projects = z.object({
  projects: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().min(1),
      targets: z
        .object({ production: z.object({ alias: z.array(z.string()).nullish(), url: z.string().nullish() }).nullish() })
        .nullish(),
    }),
  ),
  pagination: z.object({ next: z.union([z.number(), z.string()]).nullish() }).nullish(),
})

/** The client Guard is registered as at webhost-c; linking is off until the operator configures one. */
export function webhostCClient(env: CollectorEnv) {
  if (!env.GUARD_WEBHOST_C_CLIENT_ID) {
    throw new GuardError(
      'SERVICE_UNAVAILABLE',
      'webhost-c linking is not configured on this Guard: the operator sets GUARD_WEBHOST_C_CLIENT_ID (README "Integrations")',
    )
  }
  return {
    clientId: env.GUARD_WEBHOST_C_CLIENT_ID,
    ...(env.GUARD_WEBHOST_C_CLIENT_SECRET ? { clientSecret: env.GUARD_WEBHOST_C_CLIENT_SECRET } : {}),
  }
}

/** A token answer as a grant: the refresh token rotates when the platform sends a new one. */
export function webhostCGrant(answer: TokenAnswer & { expiresAt: Date | null }, refreshToken: string): TokenGrant {
  return {
    accessToken: answer.access_token,
    expiresAt: answer.expiresAt,
    secrets: { refreshToken: answer.refresh_token ?? refreshToken },
    cache: true,
  }
}

/** The production address of a project: its first alias (a custom domain when set), else its deployment URL. */
function productionHost(project: z.infer<typeof projects>['projects'][number]): string | undefined {
  const production = project.targets?.production
  return production?.alias?.[0] ?? production?.url ?? undefined
}

/**
 * webhost-c (Vercel): linked through the authorization-code flow with PKCE (see authorize.ts); the
 * refresh token is kept sealed and rotated. Projects with a production deployment are listed.
 */
export const webhostC: IntegrationProvider = {
  id: ID,
  product: {
    name: 'Vercel',
    description: "A Vercel account, linked by approving Guard at Vercel (OAuth): its projects' production deployments.",
  },
  async grant(options, account) {
    const client = webhostCClient(options.env)
    const refreshToken = account.secrets.refreshToken!
    const answer = await requestToken(
      options.env.GUARD_WEBHOST_C_TOKEN_URL,
      {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.clientId,
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
      },
      httpOptionsOf(options.env, ID),
    )
    return webhostCGrant(answer, refreshToken)
  },
  async describe(api, options) {
    const found = parseAnswer(
      user,
      await api.get(`${options.env.GUARD_WEBHOST_C_API_URL}/v2/user`, 'the user'),
      ID,
      'user',
    )
    const username = found.user.username ?? found.user.email ?? found.user.id
    return { name: username, externalKey: found.user.id, config: { userId: found.user.id, username } }
  },
  async listItems(api, options) {
    const base = options.env.GUARD_WEBHOST_C_API_URL
    const items: ProviderItem[] = []
    let until: string | undefined
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const url = `${base}/v9/projects?limit=100${until ? `&until=${encodeURIComponent(until)}` : ''}`
      const answer = parseAnswer(projects, await api.get(url, 'projects'), ID, 'project listing')
      for (const project of answer.projects) {
        const host = productionHost(project)
        if (host) {
          const url = /^https?:\/\//i.test(host) ? host : `https://${host}`
          items.push({ externalId: project.id, name: project.name, kind: 'project', target: { type: 'domain', url } })
        }
      }
      const next = answer.pagination?.next
      if (next === null || next === undefined || String(next) === until) break
      until = String(next)
    }
    return items
  },
}
