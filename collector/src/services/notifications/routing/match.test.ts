import { describe, expect, it } from 'vitest'
import { chooseRoutes, type RoutedIncident, type RouteRow, selectorMatches } from './match.ts'

const route = (id: string, position: number, fields: Partial<RouteRow> = {}): RouteRow => ({
  id,
  organization_id: 'org',
  name: id,
  position,
  is_default: false,
  selector: {},
  channel_ids: [id],
  escalation_policy_id: null,
  reminder_minutes: null,
  continue_matching: false,
  enabled: true,
  created_at: new Date(),
  updated_at: new Date(),
  ...fields,
})

const incident: RoutedIncident = {
  monitorId: 'svc_1',
  monitorKind: 'service',
  tags: ['env:prod', 'team:payments'],
  severity: 'critical',
  cause: 'down',
  kind: 'opened',
}

describe('routing', () => {
  it('matches a selector only when every field named matches, any value within a field', () => {
    expect(selectorMatches({}, incident)).toBe(true)
    expect(selectorMatches({ severities: ['high', 'critical'], monitorKinds: ['service'] }, incident)).toBe(true)
    expect(selectorMatches({ severities: ['critical'], causes: ['certificate'] }, incident)).toBe(false)
    expect(selectorMatches({ monitorIds: ['svc_2'] }, incident)).toBe(false)
    expect(selectorMatches({ events: ['resolved'] }, incident)).toBe(false)
  })

  it('needs every tag named on the monitor; a bare key matches any of its values', () => {
    expect(selectorMatches({ tags: ['env:prod', 'team'] }, incident)).toBe(true)
    expect(selectorMatches({ tags: ['env:prod', 'team:search'] }, incident)).toBe(false)
    expect(selectorMatches({ tags: ['env:pro'] }, incident)).toBe(false)
    expect(selectorMatches({ tags: ['region'] }, incident)).toBe(false)
  })

  it('takes the first matching route by position unless it continues, and the default route only when none matched', () => {
    const fallback = route('default', 1_000_000, { is_default: true })
    const payments = route('payments', 10, { selector: { tags: ['team:payments'] } })
    const prod = route('prod', 20, { selector: { tags: ['env:prod'] } })
    const disabled = route('disabled', 1, { enabled: false })
    expect(chooseRoutes([fallback, prod, payments, disabled], incident).map((r) => r.id)).toEqual(['payments'])
    const continuing = { ...payments, continue_matching: true }
    expect(chooseRoutes([fallback, prod, continuing], incident).map((r) => r.id)).toEqual(['payments', 'prod'])
    expect(chooseRoutes([fallback, prod], { ...incident, tags: [] }).map((r) => r.id)).toEqual(['default'])
    expect(chooseRoutes([prod], { ...incident, tags: [] })).toEqual([])
  })
})
