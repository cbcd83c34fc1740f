import { parseArgs } from 'node:util'
import {
  createOrganization,
  parseIdentityEnv,
  requireCatalogPlan,
  resolveDefaultPlan,
  setOrganizationPlan,
  withIdentityStore,
} from '@guard/identity'
import { createLogger } from '@guard/shared'
import { exitOnGuardError, printJson, usageError } from './output.ts'

const USAGE = [
  'guard identity orgs create --name N --slug S [--plan PLAN|none]',
  'guard identity orgs set-plan ORG PLAN|none      (ORG: id or slug; none = no limits)',
].join('\n       ')

export async function orgsCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (action === 'create') return create(rest)
  if (action === 'set-plan') return setPlan(rest)
  usageError(USAGE)
}

/** stdout carries the command's JSON only. */
const quietLog = createLogger({ name: 'guard-identity', level: 'silent', pretty: false })

/** `none` is the spelled-out "no plan, no limits"; anything else must be a catalog plan id. */
const planArgument = (value: string): string | null => (value === 'none' ? null : value)

async function create(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, slug: { type: 'string' }, plan: { type: 'string' } },
  })
  const { name, slug } = values
  if (!name || !slug) usageError(USAGE)
  const env = parseIdentityEnv()
  const requested = values.plan === undefined ? undefined : planArgument(values.plan)
  printJson(
    await withIdentityStore(env, async (sql) => {
      // --plan overrides GUARD_DEFAULT_PLAN; either is checked against the catalog.
      const plan =
        requested === undefined
          ? await resolveDefaultPlan(sql, quietLog, env)
          : requested && (await requireCatalogPlan(sql, quietLog, requested)).id
      return createOrganization(sql, { name, slug, plan })
    }).catch(exitOnGuardError),
  )
}

async function setPlan(args: string[]): Promise<void> {
  const [organization, plan, ...extra] = args
  if (!organization || !plan || extra.length > 0) usageError(USAGE)
  printJson(
    await withIdentityStore(parseIdentityEnv(), (sql) =>
      setOrganizationPlan({
        ctx: { sql, log: quietLog },
        caller: { kind: 'operator', id: 'cli' },
        input: { organization, plan: planArgument(plan) },
      }),
    ).catch(exitOnGuardError),
  )
}
