import { fileURLToPath } from 'node:url'
import { type Logger, listeningUrl, migrate, type RelationalStore } from '@guard/shared'
import { buildIdentityApp } from './app.ts'
import type { IdentityEnv } from './env.ts'
import { type BootstrapAdmin, ensureDefaultOrganization } from './services/organizations/ensure-default.ts'

export interface IdentityDeps {
  env: IdentityEnv
  log: Logger
  sql: RelationalStore
}

export interface RunningIdentity {
  url: string
  bootstrapAdmin: BootstrapAdmin | undefined
  close(): Promise<void>
}

export async function startIdentity(deps: IdentityDeps): Promise<RunningIdentity> {
  await migrate(deps.sql, {
    service: 'identity',
    directory: fileURLToPath(new URL('../migrations/postgres', import.meta.url)),
  })
  const bootstrapAdmin = await ensureDefaultOrganization(deps.sql, {
    email: deps.env.GUARD_ADMIN_EMAIL,
    password: deps.env.GUARD_ADMIN_PASSWORD,
  })
  const app = await buildIdentityApp(deps)
  await app.listen({ host: deps.env.GUARD_IDENTITY_HOST, port: deps.env.GUARD_IDENTITY_PORT })
  const url = listeningUrl(app)
  deps.log.info({ url }, 'identity listening')
  return { url, bootstrapAdmin, close: () => app.close() }
}
