import { z } from 'zod'
import { platformLinks } from '../platform/links.ts'
import { MIN_SUNSET_DAYS } from './deprecations.ts'

export const API_VERSION = '1.0.0'

export const apiIndex = z.object({
  name: z.string(),
  version: z.string(),
  versioning: z.object({
    strategy: z.string(),
    current: z.string(),
    prefix: z.string(),
    unversionedAliases: z.string().optional(),
    deprecation: z.string().optional(),
  }),
  errors: z.object({
    type: z.string().optional(),
    spec: z.string().optional(),
    fields: z.array(z.string()).optional(),
  }),
  rateLimit: z.object({ policy: z.string().optional(), headers: z.array(z.string()).optional() }),
  links: z.record(z.string(), z.url()),
})

export type ApiIndex = z.infer<typeof apiIndex>

/** The entry point of the API: where everything is and the rules every endpoint follows. */
export function buildApiIndex(baseUrl: string, rateLimit: { limit: number; windowSeconds: number }): ApiIndex {
  return {
    name: 'Guard identity API',
    version: API_VERSION,
    versioning: {
      strategy: 'path',
      current: 'v1',
      prefix: '/api/v1',
      unversionedAliases: '/api, /api/health, /api/plans and /api/changelog answer exactly as their /api/v1 paths',
      deprecation: `a deprecated operation sends Deprecation: true and a Sunset HTTP-date at least ${MIN_SUNSET_DAYS} days ahead, and is listed in the changelog and in /llms.txt`,
    },
    errors: {
      type: 'application/problem+json',
      spec: 'RFC 9457',
      fields: ['type', 'title', 'status', 'detail', 'code', 'instance', 'hint'],
    },
    rateLimit: {
      policy: `public: ${rateLimit.limit} requests per ${rateLimit.windowSeconds} seconds per client IP on the public catalog endpoints`,
      headers: ['RateLimit', 'RateLimit-Policy', 'Retry-After'],
    },
    links: platformLinks(baseUrl),
  }
}
