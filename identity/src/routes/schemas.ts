import { errorCodes } from '@guard/shared'
import { z } from 'zod'

/** RFC 9457 problem details as the spec fixes them: no other members. */
export const problemSchema = z
  .strictObject({
    type: z.url(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.enum(errorCodes),
    instance: z.string().optional(),
    hint: z.string().optional(),
  })
  .meta({ id: 'Problem' })

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: `code`, `detail` and `hint` say what to fix',
  404: 'No such resource',
  429: 'Rate limited: wait for `Retry-After` seconds',
  500: 'Internal error: retry once, then check GET /api/v1/health',
}

/** Error responses as application/problem+json, so the document names the real media type. */
export function problemResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: STATUS_TEXT[status] ?? 'Error',
        content: { 'application/problem+json': { schema: problemSchema } },
      },
    ]),
  ) as Record<S, { description: string; content: { 'application/problem+json': { schema: typeof problemSchema } } }>
}

/** The paths of a v1 operation: the versioned one first, then its stable unversioned alias. */
export const withAlias = (v1Path: string): [string, string] => [v1Path, v1Path.replace(/^\/api\/v1/, '/api')]
