import { describe, expect, it } from 'vitest'
import { MAX_TAG_LABELS, renderOpenMetrics, tagPairs } from './render-openmetrics.ts'
import type { MetricsSnapshot } from './select-monitor-metrics.ts'

describe('tag labels', () => {
  it('turns key:value tags into sanitized tag_ labels, bare keys into "true", alike keys into one label', () => {
    expect(tagPairs(['env:prod', 'Team-Name:web', 'critical', 'team_name:api', 'url:https://x.example/a'])).toEqual([
      ['tag_critical', 'true'],
      ['tag_env', 'prod'],
      ['tag_team_name', 'api,web'],
      ['tag_url', 'https://x.example/a'],
    ])
  })

  it('keeps at most MAX_TAG_LABELS labels, the first names in order', () => {
    const pairs = tagPairs(Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}:v`))
    expect(pairs).toHaveLength(MAX_TAG_LABELS)
    expect(pairs[0]).toEqual(['tag_k00', 'v'])
  })

  it('escapes quotes, backslashes and newlines in label values', async () => {
    const text = await renderOpenMetrics({ monitors: [monitor({ name: 'a "b" \\ c\nd' })], devices: [], slos: [] }, 0)
    expect(text).toContain('guard_monitor_info{monitor_id="m1",monitor="a \\"b\\" \\\\ c\\nd",kind="domain"} 1\n')
  })
})

const monitor = (
  overrides: Partial<MetricsSnapshot['monitors'][number]> = {},
): MetricsSnapshot['monitors'][number] => ({
  organizationId: 'o',
  id: 'm1',
  name: 'Shop',
  kind: 'domain',
  group: null,
  tags: [],
  up: true,
  certificateExpiresAt: null,
  domainExpiresAt: null,
  openIncidents: 0,
  incidents: 0,
  locations: [],
  ...overrides,
})

describe('OpenMetrics text', () => {
  it('puts name, kind, group and tags on the info series only, and monitor_id (and location) on the others', async () => {
    const text = await renderOpenMetrics(
      {
        monitors: [
          monitor({
            group: 'Checkout',
            tags: ['env:prod'],
            certificateExpiresAt: 86_400_000,
            locations: [{ location: 'fra', up: true, checks: 3, failures: 1, responseMsSum: 370 }],
          }),
        ],
        devices: [],
        slos: [],
      },
      0,
    )
    expect(text).toContain('# TYPE guard_monitor info\n')
    expect(text).toContain(
      'guard_monitor_info{monitor_id="m1",monitor="Shop",kind="domain",group="Checkout",tag_env="prod"} 1\n',
    )
    expect(text).toContain('guard_monitor_up{monitor_id="m1"} 1\n')
    expect(text).toContain('guard_monitor_location_up{monitor_id="m1",location="fra"} 1\n')
    expect(text).toContain('guard_monitor_response_seconds{monitor_id="m1",location="fra"} 0.123333\n')
    expect(text).toContain('guard_monitor_uptime_ratio{monitor_id="m1",location="fra"} 0.666667\n')
    expect(text).toContain('guard_monitor_certificate_expiry_seconds{monitor_id="m1"} 86400\n')
    expect(text.match(/Shop/g)).toHaveLength(1)
    expect(text.endsWith('# EOF\n')).toBe(true)
  })

  it('keeps each family together across the turns it yields between', async () => {
    const monitors = Array.from({ length: 2500 }, (_, i) => monitor({ id: `m${i}` }))
    const text = await renderOpenMetrics({ monitors, devices: [], slos: [] }, 0)
    const names = text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.slice(0, line.indexOf('{')))
    const runs = names.filter((name, i) => name !== names[i - 1])
    expect(runs).toEqual([...new Set(names)])
    expect(names.filter((name) => name === 'guard_monitor_up')).toHaveLength(2500)
  })
})
