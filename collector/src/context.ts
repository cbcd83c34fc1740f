import type { Bus, DependencyCheck, KvBucket, Logger, RelationalStore, TimeSeriesStore } from '@guard/shared'
import type { CollectorEnv } from './env.ts'
import type { MembershipSource } from './services/memberships/source.ts'
import type { PlanSource } from './services/plans/source.ts'
import type { ReadCache } from './services/read-cache/cache.ts'

/** What every collector service works with; built once at start and passed down. */
export interface CollectorContext {
  env: CollectorEnv
  log: Logger
  sql: RelationalStore
  timeseries: TimeSeriesStore
  bus: Bus
  monitors: KvBucket
  /** Seals and opens the secrets the collector stores (webhook signing secrets). */
  sealKey: Buffer
  /** Background workers listen here for work queued by a commit ('deliveries'), to skip their poll wait. */
  wake: EventTarget
  /** Each organization's plan and its limits (identity's, cached), enforced on every monitor write. */
  plans: PlanSource
  /**
   * Users' current roles (identity's), which bound what their API keys may do; undefined without
   * identity (GUARD_IDENTITY_URL unset), where no user's membership can change.
   */
  members: MembershipSource | undefined
  /** Whether identity answers the collector's service token, for /api/health; absent without identity. */
  identityCheck?: DependencyCheck
  /** Seals and opens monitor credentials (a purpose key derived from GUARD_SECRET_KEY). */
  credentialKey: Buffer
  /** This replica's rendered reads, invalidated across replicas through the bus. */
  reads: ReadCache
  /** Seals credentials for probes (GUARD_PROBE_CREDENTIALS_KEY); unset, probes get them in the clear. */
  probeCredentialsKey: Buffer | undefined
}

/** Who is calling, resolved from an API key or a user's access token. */
export interface Caller {
  /** What rate limits and audit trails count against. */
  principal: { kind: 'api_key' | 'user'; id: string }
  /** Every query of this request is scoped to this organization. */
  organizationId: string
  /** All organizations the caller belongs to; a request may name any of them. */
  organizationIds: string[]
  /** Granted `<resource>:<action>` permissions; `*` stands for any resource or action. */
  permissions: string[]
  /** A signed-in user's membership role in `organizationId`; API keys have none. */
  role?: string
}
