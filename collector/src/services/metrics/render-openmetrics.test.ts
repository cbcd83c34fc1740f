import { describe, expect, it } from 'vitest'
import { MAX_TAG_LABELS, renderOpenMetrics, tagPairs } from './render-openmetrics.ts'

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

  it('escapes quotes, backslashes and newlines in label values', () => {
    const text = renderOpenMetrics(
      {
        monitors: [
          {
            organizationId: 'o',
            id: 'm1',
            name: 'a "b" \\ c\nd',
            kind: 'domain',
            tags: [],
            up: true,
            certificateExpiresAt: null,
            domainExpiresAt: null,
            openIncidents: 0,
            incidents: 0,
            locations: [],
          },
        ],
        devices: [],
        slos: [],
      },
      0,
    )
    expect(text).toContain('guard_monitor_up{monitor_id="m1",monitor="a \\"b\\" \\\\ c\\nd",kind="domain"} 1\n')
  })
})
