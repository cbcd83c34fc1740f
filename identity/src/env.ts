import { commonEnv, envTypes, parseEnv, storeEnv } from '@guard/shared'
import { z } from 'zod'

export const identityEnvSchema = z.object({
  ...commonEnv,
  DATABASE_URL: storeEnv.DATABASE_URL,
  GUARD_IDENTITY_HOST: z.string().min(1).default('127.0.0.1'),
  GUARD_IDENTITY_PORT: envTypes.port.default(4000),
  GUARD_ADMIN_EMAIL: z.email().default('admin@guard.local'),
  /** A random password is generated on the first start when unset. */
  GUARD_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
})

export type IdentityEnv = z.infer<typeof identityEnvSchema>

export const parseIdentityEnv = (env: NodeJS.ProcessEnv = process.env): IdentityEnv =>
  parseEnv('identity', identityEnvSchema, env)
