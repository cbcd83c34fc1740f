import { z } from 'zod'
import { databaseFields, databaseProblems, databaseSecrets } from './database-fields.ts'
import { defineProtocol } from './define.ts'

/** Aggregation stages that write; refused anywhere in a check's pipeline. */
const writingStages = new Set(['$out', '$merge'])

const writes = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(writes)
  if (value === null || typeof value !== 'object') return false
  return Object.entries(value).some(([key, inner]) => writingStages.has(key) || writes(inner))
}

const mongoDocument = z.record(z.string(), z.unknown())

export const mongoQuery = z
  .object({
    database: z.string().min(1).max(64).meta({ description: 'The database of the collection.' }),
    collection: z.string().min(1).max(255).meta({ description: 'The collection to read.' }),
    filter: mongoDocument
      .optional()
      .meta({ description: 'A `find` filter (MongoDB query document); default `{}`, every document.' }),
    pipeline: z
      .array(mongoDocument)
      .max(50)
      .refine((stages) => !writes(stages), { message: 'must not write: $out and $merge are refused' })
      .optional()
      .meta({ description: 'An aggregation pipeline, instead of `filter`; `$out` and `$merge` are refused.' }),
  })
  .meta({
    description:
      'What to read instead of `ping`: documents of `collection` matching `filter` (rows: `countDocuments`), or the output of `pipeline`.',
  })
export type MongoQuery = z.infer<typeof mongoQuery>

export const mongodbProtocol = defineProtocol({
  kind: 'mongodb',
  label: 'MongoDB',
  description:
    'Connects and signs in to MongoDB, then runs `ping` or the given read-only query (find, count or aggregate); up when it answers as expected.',
  defaultPort: 27017,
  options: z.object({
    ...databaseFields,
    authSource: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'The database holding the user; default `admin`.' }),
    query: mongoQuery.optional(),
    expectValue: databaseFields.expectValue.meta({
      description: 'The first field other than `_id` of the first document, as text (objects as JSON).',
    }),
  }),
  secrets: databaseSecrets,
  problems: (options) => [
    ...databaseProblems(options, 'query', options.query),
    ...(options.query?.filter && options.query.pipeline
      ? [[['query', 'pipeline'], 'give filter or pipeline, not both'] satisfies [string[], string]]
      : []),
  ],
})
