import { z } from 'zod'

/**
 * Options every database protocol shares (PostgreSQL, MySQL, Redis, MongoDB): TLS, the account,
 * and the assertion on the answer of the read-only query.
 */

export const rowComparison = z.enum(['==', '>=', '<='])
export type RowComparison = z.infer<typeof rowComparison>

export const expectRows = z
  .object({
    count: z.number().int().min(0).max(1_000_000_000).meta({ description: 'The row count to compare with.' }),
    comparison: rowComparison
      .optional()
      .meta({ description: 'How the query’s row count must compare with `count`; default `==`.' }),
  })
  .meta({ description: 'Asserts the number of rows (documents, list items) the query returns.' })
export type ExpectRows = z.infer<typeof expectRows>

export const databaseFields = {
  tls: z.boolean().optional().meta({ description: 'Connect over TLS; default false.' }),
  ignoreTlsErrors: z.boolean().optional().meta({
    description: 'Accept a certificate that does not verify (self-signed, expired, other name); default false.',
  }),
  username: z.string().min(1).max(128).optional().meta({ description: 'The account to sign in as.' }),
  expectRows: expectRows.optional(),
  expectValue: z
    .string()
    .max(1000)
    .optional()
    .meta({ description: 'The first column of the first row, compared as text (`null` for SQL NULL).' }),
}

export const databaseSecrets = z.object({
  password: z.string().min(1).max(1024).meta({ description: 'The account’s password; write-only.' }),
})

interface DatabaseOptions {
  tls?: boolean | undefined
  ignoreTlsErrors?: boolean | undefined
  expectRows?: ExpectRows | undefined
  expectValue?: string | undefined
}

/**
 * Cross-field rules every database protocol shares. An assertion on the default probe (`SELECT 1`,
 * `PING`) proves nothing about the data, so it needs the query it is about, named `queryField`.
 */
export function databaseProblems(
  options: DatabaseOptions,
  queryField: string,
  query: unknown,
): Array<[string[], string]> {
  const problems: Array<[string[], string]> = []
  if (options.ignoreTlsErrors && !options.tls) problems.push([['ignoreTlsErrors'], 'needs tls: true'])
  if (query === undefined) {
    if (options.expectRows !== undefined) problems.push([['expectRows'], `needs a ${queryField}`])
    if (options.expectValue !== undefined) problems.push([['expectValue'], `needs a ${queryField}`])
  }
  return problems
}
