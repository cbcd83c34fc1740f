import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importOpenstatus, OpenstatusConfigError } from './import-openstatus.ts'
import { mapAssertions } from './map-assertions.ts'
import { DEFAULT_REGIONS, parseRegionList, RegionMappingError, readRegionFile } from './region-table.ts'

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name)
/** A `${env:NAME}` reference, spelled without tripping the template-string lint. */
const env = (name: string) => `\${env:${name}}`
const items = (unmapped: Array<{ item: string }>) => unmapped.map(({ item }) => item)

async function scratch(name: string, text: string) {
  const path = join(await mkdtemp(join(tmpdir(), 'guard-openstatus-')), name)
  await writeFile(path, text)
  return path
}

describe('importOpenstatus on the CLI reference', () => {
  it('maps the complete example (monitors: list) field by field', async () => {
    const path = fixture('cli-reference-complete-example.yaml')
    const { document, unmapped, secrets } = await importOpenstatus(path)
    expect(document).toEqual({
      version: 1,
      domains: [
        {
          id: 'production-api',
          name: 'Production API',
          url: 'https://api.example.com/health',
          authType: 'bearer',
          credentials: { token: env('API_TOKEN') },
          keyword: 'ok',
          conditions: ['[STATUS] == 200'],
          checkInterval: 60,
          timeout: 10,
          degradedAboveMs: 3000,
          locations: ['iad', 'fra', 'sin', 'syd'],
          failureThreshold: 3,
        },
        {
          id: 'webhook-post',
          name: 'Webhook POST',
          url: 'https://api.example.com/webhooks',
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"test": true}',
          conditions: ['[STATUS] < 300', 'len([HEADERS].x-request-id) > 0'],
          checkInterval: 600,
          locations: ['iad'],
        },
      ],
      services: [
        {
          id: 'database-tcp',
          name: 'Database TCP',
          protocol: 'tcp',
          protocolConfig: { host: 'db.example.com', port: 5432 },
          checkInterval: 300,
          timeout: 5,
          locations: ['iad', 'fra'],
        },
      ],
    })
    expect(secrets).toEqual([{ name: 'API_TOKEN', source: path, item: 'monitors[0].request.headers.Authorization' }])
    expect(items(unmapped)).toEqual([
      'monitors[0].description',
      'monitors[0].public',
      'monitors[1].description',
      'monitors[2].description',
    ])
  })

  it('maps the map form the CLI reads (id → monitor), retry as the failure threshold', async () => {
    const { document, unmapped } = await importOpenstatus(fixture('cli-test-monitor.yaml'))
    expect(document).toEqual({
      version: 1,
      domains: [
        {
          id: 'test-monitor',
          name: 'Test Monitor',
          url: 'https://example.com',
          headers: { 'User-Agent': 'OpenStatus' },
          conditions: ['[STATUS] == 200'],
          checkInterval: 600,
          locations: ['iad', 'ams'],
          failureThreshold: 4,
        },
      ],
    })
    expect(items(unmapped)).toEqual(['"test-monitor".description'])
  })

  it('quotes a JSON body assertion so the condition parser reads it back whole', async () => {
    const { document } = await importOpenstatus(fixture('docs-mcp-server.yaml'))
    expect(document.domains).toEqual([
      {
        id: 'mcp-server',
        name: 'HF MCP Server',
        url: 'https://hf.co/mcp',
        method: 'POST',
        headers: {
          'User-Agent': 'openstatus',
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
        },
        body: '{\n  "jsonrpc": "2.0",\n  "id": "openstatus",\n  "method": "ping"\n}\n',
        conditions: [
          '[STATUS] == 200',
          '[BODY] == "{\\"result\\":{},\\"jsonrpc\\":\\"2.0\\",\\"id\\":\\"openstatus\\"}"',
        ],
        checkInterval: 60,
        locations: ['iad', 'ams', 'lax'],
        failureThreshold: 4,
      },
    ])
  })

  it('maps OpenStatus’s own monitors, Koyeb and Railway regions to the location of the same city', async () => {
    const { document, unmapped } = await importOpenstatus(fixture('openstatus-infra.yaml'))
    expect(document.domains?.map(({ id, checkInterval }) => [id, checkInterval])).toEqual([
      ['openstatus', 600],
      ['openstatus-status-page', 600],
      ['openstatus-api-server', 600],
      ['openstat.us', 60],
      ['openstatus-astro-status-page', 3600],
    ])
    expect(document.domains?.[0]?.locations).toEqual([
      'ams',
      'iad',
      'jnb',
      'gru',
      'syd',
      'cdg',
      'bom',
      'sin',
      'fra',
      'lhr',
      'arn',
      'den',
      'dfw',
      'ord',
      'lax',
      'sjc',
      'ewr',
      'yyz',
      'nrt',
    ])
    expect(document.services).toEqual([
      expect.objectContaining({
        id: 'openstatus-tcp-check',
        protocol: 'tcp',
        protocolConfig: { host: 'openstatus.dev', port: 443 },
        failureThreshold: 4,
      }),
    ])
    expect(unmapped.every(({ item }) => /\.(description|public)$/.test(item))).toBe(true)
    expect(unmapped).toHaveLength(8)
  })
})

describe('importOpenstatus regions', () => {
  it('takes the user’s table over the default, - leaving a region out, and lists a region no table names', async () => {
    const path = await scratch(
      'openstatus.yaml',
      `
api:
  kind: http
  frequency: 30s
  regions: [fra, iad, private, koyeb_par]
  request: { url: "https://example.org" }
`,
    )
    const { document, unmapped } = await importOpenstatus(path, {
      regions: parseRegionList('fra=eu-central,iad=us-east,koyeb_par=-'),
    })
    expect(document.domains?.[0]).toMatchObject({ checkInterval: 30, locations: ['eu-central', 'us-east'] })
    expect(unmapped).toEqual([
      {
        source: path,
        item: '"api".regions private',
        reason: 'no location for region private; map it with --regions private=<location>',
      },
    ])
  })

  it('reads a region file and refuses what is not REGION=LOCATION', async () => {
    expect(await readRegionFile(await scratch('regions.yaml', 'fra: eu-central\nsyd: "*"\n'))).toEqual({
      fra: 'eu-central',
      syd: '*',
    })
    expect(() => parseRegionList('fra')).toThrow(RegionMappingError)
    expect(() => parseRegionList('fra=EU Central')).toThrow(/fra=EU Central is not REGION=LOCATION/)
    await expect(readRegionFile(await scratch('regions.yaml', '- fra\n'))).rejects.toThrow(RegionMappingError)
  })

  it('names a location for every public region of the CLI reference', () => {
    expect(Object.keys(DEFAULT_REGIONS)).toHaveLength(45)
    for (const location of Object.values(DEFAULT_REGIONS)) expect(location).toMatch(/^[a-z]{3}$/)
  })
})

describe('mapAssertions', () => {
  it('turns each kind and comparison into a condition, the first body contains into the keyword', () => {
    expect(
      mapAssertions([
        { kind: 'statusCode', compare: 'not_eq', target: 500 },
        { kind: 'statusCode', compare: 'gte', target: 200 },
        { kind: 'textBody', compare: 'not_contains', target: 'error' },
        { kind: 'textBody', compare: 'contains', target: 'ok' },
        { kind: 'textBody', compare: 'not_empty' },
        { kind: 'header', compare: 'eq', key: 'content-type', target: 'application/json' },
        { kind: 'header', compare: 'contains', key: 'cache-control', target: 'no-store' },
        { kind: 'header', compare: 'lt', key: 'age', target: 60 },
      ]),
    ).toEqual({
      conditions: [
        '[STATUS] != 500',
        '[STATUS] >= 200',
        '[BODY] == pat("*ok*")',
        'len([BODY]) > 0',
        '[HEADERS].content-type == "application/json"',
        '[HEADERS].cache-control == pat("*no-store*")',
        '[HEADERS].age < 60',
      ],
      keyword: 'error',
      keywordAbsent: true,
      unmapped: [],
    })
  })

  it('lists what has no condition', () => {
    expect(
      mapAssertions([
        { kind: 'statusCode', compare: 'contains', target: 20 },
        { kind: 'textBody', compare: 'gt', target: 'abc' },
        { kind: 'header', compare: 'eq', target: 'x' },
        { kind: 'jsonBody', compare: 'eq', target: 'x' },
        { kind: 'textBody', compare: 'contains', target: 'first' },
        { kind: 'textBody', compare: 'contains', target: 'a*b' },
      ]).unmapped,
    ).toEqual([
      { index: 0, reason: 'Guard compares status codes as numbers, not with contains' },
      { index: 1, reason: 'gt compares numbers; abc is not one' },
      { index: 2, reason: 'a header assertion needs the header name (key)' },
      { index: 3, reason: 'Guard has no assertion of kind jsonBody' },
      { index: 5, reason: 'a*b holds * or ?, which pat() reads as wildcards' },
    ])
  })
})

describe('importOpenstatus on what the reference leaves out', () => {
  it('lists a monitor of another kind and one without a request, and refuses a file that is not a mapping', async () => {
    const path = await scratch(
      'openstatus.yaml',
      `
dns:
  kind: dns
  frequency: 1m
  request: { url: example.org }
broken:
  kind: http
  frequency: 1m
  request: {}
slow:
  kind: http
  frequency: 30s
  timeout: 45000
  degradedAfter: 40000
  request: { url: "https://example.org", method: GET, body: x }
`,
    )
    const { document, unmapped } = await importOpenstatus(path)
    expect(document.domains).toEqual([{ id: 'slow', name: 'slow', url: 'https://example.org', checkInterval: 30 }])
    expect(items(unmapped)).toEqual([
      '"dns"',
      '"broken"',
      '"slow".request.body',
      '"slow".timeout',
      '"slow".degradedAfter',
    ])
    await expect(importOpenstatus(await scratch('list.yaml', '- a\n'))).rejects.toThrow(OpenstatusConfigError)
  })
})
