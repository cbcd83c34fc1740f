import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlatformTestIdentity, startPlatformIdentity } from '../routes/testing.ts'
import { MIN_SUNSET_DAYS } from '../services/docs/deprecations.ts'

const DAY_MS = 86_400_000
const announced = new Date()
const sunset = new Date(announced.getTime() + 120 * DAY_MS)
let identity: PlatformTestIdentity

beforeAll(async () => {
  identity = await startPlatformIdentity({
    extend: (app) => {
      app.get(
        '/api/v1/legacy-plans',
        {
          config: {
            deprecation: {
              announced: announced.toISOString(),
              sunset: sunset.toISOString(),
              replacement: 'GET /api/v1/plans',
            },
          },
          schema: { summary: 'Old plan list', tags: ['api'] },
        },
        async () => ({ plans: [] }),
      )
    },
  })
})
afterAll(() => identity?.close())

describe('deprecation', () => {
  it('a deprecated operation sends Deprecation: true and a Sunset HTTP-date at least 90 days ahead', async () => {
    const response = await fetch(`${identity.url}/api/v1/legacy-plans`)
    expect(response.status).toBe(200)
    expect(response.headers.get('deprecation')).toBe('true')
    const header = response.headers.get('sunset')!
    expect(header).toBe(sunset.toUTCString())
    expect(Date.parse(header) - Date.now()).toBeGreaterThanOrEqual(MIN_SUNSET_DAYS * DAY_MS - 1000)
    expect((await fetch(`${identity.url}/api/v1/plans`)).headers.get('deprecation')).toBeNull()
  })

  it('a deprecated operation is listed in the changelog', async () => {
    const body = (await (await fetch(`${identity.url}/api/v1/changelog?app=api`)).json()) as {
      entries: Array<{ name: string; contentMd: string }>
    }
    const entry = body.entries.find((candidate) => candidate.name === 'Deprecated: GET /api/v1/legacy-plans')
    expect(entry?.contentMd).toContain(sunset.toUTCString())
    expect(entry?.contentMd).toContain('GET /api/v1/plans')
  })

  it('a deprecated operation is listed in llms.txt', async () => {
    const text = await (await fetch(`${identity.url}/llms.txt`)).text()
    const section = text.split('## Deprecated operations')[1]?.split('\n## ')[0]
    expect(section).toContain('GET /api/v1/legacy-plans')
    expect(section).toContain(sunset.toUTCString())
  })

  it('a deprecated operation is marked deprecated in the OpenAPI document', async () => {
    const document = (await (await fetch(`${identity.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { deprecated?: boolean }>>
    }
    expect(document.paths['/api/v1/legacy-plans']?.get?.deprecated).toBe(true)
    expect(document.paths['/api/v1/plans']?.get?.deprecated).toBeUndefined()
  })

  it('a sunset less than 90 days after the announcement is refused at start', async () => {
    await expect(
      startPlatformIdentity({
        extend: (app) => {
          app.get(
            '/api/v1/too-soon',
            {
              config: {
                deprecation: {
                  announced: announced.toISOString(),
                  sunset: new Date(announced.getTime() + 30 * DAY_MS).toISOString(),
                },
              },
            },
            async () => ({}),
          )
        },
      }),
    ).rejects.toThrow(/at least 90 days/)
  })
})
