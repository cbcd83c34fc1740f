import { z } from 'zod'
import { databaseFields, databaseProblems, databaseSecrets } from './database-fields.ts'
import { defineProtocol } from './define.ts'

/**
 * The commands a Redis check may run: they read and change nothing. Redis has no read-only
 * session a client can ask for, so the list is the guard.
 */
export const redisReadCommands = [
  'PING',
  'ECHO',
  'DBSIZE',
  'EXISTS',
  'TYPE',
  'TTL',
  'PTTL',
  'GET',
  'MGET',
  'STRLEN',
  'GETRANGE',
  'HGET',
  'HMGET',
  'HGETALL',
  'HKEYS',
  'HVALS',
  'HLEN',
  'HEXISTS',
  'LLEN',
  'LINDEX',
  'LRANGE',
  'SCARD',
  'SISMEMBER',
  'SMEMBERS',
  'ZCARD',
  'ZCOUNT',
  'ZSCORE',
  'ZRANGE',
  'ZRANK',
  'XLEN',
  'PFCOUNT',
] as const

const readCommands: ReadonlySet<string> = new Set(redisReadCommands)

/** Whether the command line starts with a command of `redisReadCommands` (any case). */
export const isRedisReadCommand = (command: readonly string[]) =>
  command[0] !== undefined && readCommands.has(command[0].toUpperCase())

export const redisCommand = z
  .array(z.string().max(1000))
  .min(1)
  .max(32)
  .refine(isRedisReadCommand, {
    message: `must start with a read-only command: ${redisReadCommands.join(', ')}`,
  })
  .meta({
    description:
      'The command and its arguments, e.g. `["GET", "health"]`; only read-only commands are allowed. Default `["PING"]`.',
  })

export const redisProtocol = defineProtocol({
  kind: 'redis',
  label: 'Redis',
  description:
    'Connects and signs in to Redis, then sends `PING` or the given read-only command; up when it answers as expected.',
  defaultPort: 6379,
  options: z.object({
    ...databaseFields,
    username: databaseFields.username.meta({
      description: 'The ACL user to sign in as; with only a password, Redis’s `default` user.',
    }),
    database: z
      .number()
      .int()
      .min(0)
      .max(255)
      .optional()
      .meta({ description: 'The logical database (`SELECT` index); default 0.' }),
    command: redisCommand.optional(),
    expectRows: databaseFields.expectRows.meta({
      description: 'Asserts the reply’s length: items of a list reply, 1 for any other reply, 0 for nil.',
    }),
    expectValue: databaseFields.expectValue.meta({
      description: 'The reply as text (the first item of a list reply); `null` for nil.',
    }),
  }),
  secrets: databaseSecrets,
  problems: (options) => databaseProblems(options, 'command', options.command),
})
