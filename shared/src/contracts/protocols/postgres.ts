import { z } from 'zod'
import { databaseFields, databaseProblems, databaseSecrets } from './database-fields.ts'
import { defineProtocol } from './define.ts'

export const postgresProtocol = defineProtocol({
  kind: 'postgres',
  label: 'PostgreSQL',
  description:
    'Connects and signs in to PostgreSQL, then runs `SELECT 1` or the given query in a read-only transaction; up when it answers as expected.',
  defaultPort: 5432,
  options: z.object({
    ...databaseFields,
    database: z
      .string()
      .min(1)
      .max(63)
      .optional()
      .meta({ description: 'The database to connect to; default `postgres`.' }),
    query: z.string().min(1).max(10_000).optional().meta({
      description:
        'One SQL statement, run in a read-only transaction (writes fail with `query_failed`); default `SELECT 1`.',
    }),
  }),
  secrets: databaseSecrets,
  problems: (options) => databaseProblems(options, 'query', options.query),
})
