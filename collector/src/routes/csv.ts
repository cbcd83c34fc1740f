import { stringify } from 'csv-stringify/sync'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'

/** The `format` query parameter of routes that answer CSV as well as JSON. */
export const responseFormat = z
  .enum(['json', 'csv'])
  .optional()
  .meta({ description: '`csv` answers CSV; without it, an Accept header preferring text/csv does too' })

/** CSV when asked for with `format=csv` or an Accept header preferring text/csv; JSON otherwise. */
export const wantsCsv = (request: FastifyRequest, format: string | undefined) =>
  format === 'csv' || (format === undefined && /^\s*text\/csv/.test(request.headers.accept ?? ''))

/** `rows` as a CSV attachment named `name`.csv: a header line of `columns`, empty cells for null. */
export function sendCsv(reply: FastifyReply, name: string, columns: string[], rows: Array<Record<string, unknown>>) {
  reply.header('Content-Disposition', `attachment; filename="${name}.csv"`)
  return reply
    .type('text/csv; charset=utf-8')
    .send(stringify(rows, { header: true, columns, cast: { boolean: String } }))
}

/**
 * A user-given name as part of an attachment's file name: ASCII letters, digits and hyphens only, so
 * no quote, semicolon or line break of the name can reach the Content-Disposition header.
 */
export const fileNamePart = (name: string, fallback: string) =>
  name
    .normalize('NFKD')
    // Accents come apart from their letters: é stays e.
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '') || fallback
