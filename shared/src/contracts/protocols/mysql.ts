import { z } from 'zod'
import { databaseFields, databaseProblems, databaseSecrets } from './database-fields.ts'
import { defineProtocol } from './define.ts'

export const mysqlProtocol = defineProtocol({
  kind: 'mysql',
  label: 'MySQL / MariaDB',
  description:
    'Connects and signs in to MySQL or MariaDB, then runs `SELECT 1` or the given query in a read-only transaction; up when it answers as expected.',
  defaultPort: 3306,
  options: z.object({
    ...databaseFields,
    database: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'The default database of the session; none when omitted.' }),
    query: z.string().min(1).max(10_000).optional().meta({
      description:
        'One SQL statement, run in a `START TRANSACTION READ ONLY` transaction (writes fail with `query_failed`); default `SELECT 1`.',
    }),
  }),
  secrets: databaseSecrets,
  problems: (options) => databaseProblems(options, 'query', options.query),
})
