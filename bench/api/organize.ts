import { newId, type RelationalStore } from '@guard/shared'
import { DEFAULT_BURN_ALERTS } from '../../collector/src/services/slos/schemas.ts'

/** Twenty tags over four keys and four bare ones, as teams tag their monitors. */
export const ORGANIZE_TAGS = [
  'env:prod',
  'env:staging',
  'env:dev',
  'team:web',
  'team:api',
  'team:data',
  'team:infra',
  'region:eu',
  'region:us',
  'region:ap',
  'tier:1',
  'tier:2',
  'tier:3',
  'customer:acme',
  'customer:globex',
  'customer:initech',
  'critical',
  'public',
  'internal',
  'legacy',
]
const GROUPS = 500
const TOP_LEVEL = 100
const CHILDREN = 200
const MONITOR_SLOS = 200
const GROUP_SLOS = 50

export interface Organization {
  groupIds: string[]
  monitorSloIds: string[]
  groupSloIds: string[]
  dependencySample: string
}

/**
 * Ids chosen once, so that every mode's database holds the same organization and the endpoints name
 * the same rows. `seeded` are the monitors with results (the first of `monitorIds`): the SLOs and
 * dependencies are on them, and the groups are filled in order, so the first groups' members have results.
 */
export function planOrganization(seeded: string[]): Organization {
  return {
    groupIds: Array.from({ length: GROUPS }, () => newId()),
    monitorSloIds: Array.from({ length: Math.min(MONITOR_SLOS, seeded.length) }, () => newId()),
    groupSloIds: Array.from({ length: GROUP_SLOS }, () => newId()),
    dependencySample: seeded[Math.min(10, seeded.length - 1)]!,
  }
}

/**
 * Tags, groups, dependencies and SLOs in bulk SQL (seconds, where the routes take minutes for
 * 10,000 monitors): each monitor 1 to 3 of ORGANIZE_TAGS by a hash of its id; 500 groups, 100
 * top-level with 200 children and 200 grandchildren, 20 monitors each in `monitorIds` order; among
 * the seeded monitors, each tenth one the parent of the nine after it (and of the first one); 200
 * SLOs on seeded monitors and 50 on the first groups, a quarter of them calendar-month.
 */
export async function seedOrganization(
  sql: RelationalStore,
  {
    organizationId,
    monitorIds,
    seeded,
    plan,
  }: { organizationId: string; monitorIds: string[]; seeded: string[]; plan: Organization },
) {
  await sql.query(
    `UPDATE monitoring.monitors m SET tags = picked.tags
       FROM (SELECT id, (SELECT array_agg(DISTINCT ($2::text[])[1 + abs(hashtext(id || ':' || k)::bigint) % 20])
                           FROM generate_series(1, 1 + abs(hashtext(id)::bigint) % 3) AS k) AS tags
               FROM monitoring.monitors WHERE organization_id = $1) picked
      WHERE m.id = picked.id`,
    [organizationId, ORGANIZE_TAGS],
  )
  const parents = plan.groupIds.map((_, index) => {
    if (index < TOP_LEVEL) return null
    if (index < TOP_LEVEL + CHILDREN) return plan.groupIds[(index - TOP_LEVEL) % TOP_LEVEL]!
    return plan.groupIds[TOP_LEVEL + (index - TOP_LEVEL - CHILDREN)]!
  })
  const rules = plan.groupIds.map((_, index) => ['all', 'any', 'percent'][index % 3]!)
  await sql.query(
    `INSERT INTO monitoring.monitor_groups (id, organization_id, name, parent_id, rule, rule_percent)
     SELECT id, $2, 'group ' || lpad(n::text, 3, '0'), parent, rule, CASE WHEN rule = 'percent' THEN 50 END
       FROM unnest($1::text[], $3::text[], $4::text[]) WITH ORDINALITY AS g(id, parent, rule, n)`,
    [plan.groupIds, organizationId, parents, rules],
  )
  await sql.query(
    `UPDATE monitoring.monitors m SET group_id = ($2::text[])[1 + (u.n - 1) * $3 / $4]
       FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n) WHERE m.id = u.id`,
    [monitorIds, plan.groupIds, plan.groupIds.length, monitorIds.length],
  )
  await sql.query(
    `INSERT INTO monitoring.monitor_dependencies (organization_id, monitor_id, depends_on_id)
     SELECT $2, id, ($1::text[])[CASE WHEN (n - 1) % 10 = 0 THEN 1 ELSE (n - 1) / 10 * 10 + 1 END]
       FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n) WHERE n > 1`,
    [seeded, organizationId],
  )
  const step = Math.max(1, Math.floor(seeded.length / plan.monitorSloIds.length))
  const subjects = plan.monitorSloIds.map((_, index) => seeded[index * step]!)
  await sql.query(
    `INSERT INTO monitoring.slos (id, organization_id, name, monitor_id, group_id, objective, window_type, window_days, burn_alerts)
     SELECT id, $2, 'slo ' || lpad(n::text, 3, '0'), monitor_id, group_id, 99.9,
            CASE WHEN n % 4 = 0 THEN 'calendar-month' ELSE 'rolling' END, CASE WHEN n % 4 = 0 THEN NULL ELSE 30 END, $5::jsonb
       FROM unnest($1::text[], $3::text[], $4::text[]) WITH ORDINALITY AS s(id, monitor_id, group_id, n)`,
    [
      [...plan.monitorSloIds, ...plan.groupSloIds],
      organizationId,
      [...subjects, ...plan.groupSloIds.map(() => null)],
      [...plan.monitorSloIds.map(() => null), ...plan.groupIds.slice(0, plan.groupSloIds.length)],
      JSON.stringify(DEFAULT_BURN_ALERTS),
    ],
  )
}

/** The reads of the tag filter, the groups, the dependencies and the SLOs, by name. */
export function organizeEndpoints(plan: Organization): Record<string, string> {
  const group = plan.groupIds[0]!
  return {
    list: '/api/domains?limit=20',
    listTag: '/api/domains?limit=20&tag=env:prod',
    listTwoTags: '/api/domains?limit=20&tag=env:prod&tag=team:web',
    listTagKey: '/api/domains?limit=20&tag=team',
    listGroup: `/api/domains?limit=20&groupId=${group}&includeSubgroups=true`,
    groups: '/api/groups',
    group: `/api/groups/${group}`,
    tags: '/api/tags',
    dashboardStats: '/api/dashboard/stats',
    dashboardStatsTag: '/api/dashboard/stats?tag=env:prod',
    slos: '/api/slos',
    slo: `/api/slos/${plan.monitorSloIds[0]}`,
    groupSlo: `/api/slos/${plan.groupSloIds[0]}`,
    sloReportTag: '/api/reports/slos?tag=env:prod',
    sloReportGroup: `/api/reports/slos?group=${group}`,
    dependencies: `/api/monitors/${plan.dependencySample}/dependencies`,
  }
}
