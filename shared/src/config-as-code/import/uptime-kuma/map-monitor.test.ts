import { describe, expect, it } from 'vitest'
import { importContext } from './context.ts'
import { mapMonitors } from './map-monitor.ts'
import { kumaMonitor } from './source.ts'

const links = { tagsOf: () => [], channelsOf: () => [] }
const map = (fields: Record<string, unknown>) => {
  const context = importContext()
  const monitor = kumaMonitor.parse({
    id: 1,
    name: 'API',
    type: 'json-query',
    url: 'https://api.example.com',
    ...fields,
  })
  const mapped = mapMonitors([monitor], links, context)
  return { entry: [...mapped.domains, ...mapped.services, ...mapped.groups][0], unmapped: context.unmapped }
}

describe('a json-query monitor', () => {
  it('compares a number as a number', () => {
    expect(map({ json_path: '$.count', expected_value: '3', json_path_operator: '==' }).entry?.jsonPath).toEqual({
      path: '$.count',
      equals: 3,
    })
  })

  it('orders numbers through a condition', () => {
    expect(
      map({ json_path: 'queue.length', expected_value: '100', json_path_operator: '<' }).entry?.conditions,
    ).toEqual(['[BODY].queue.length < 100'])
  })

  it('matches contains as a pattern and != as a condition on text', () => {
    expect(
      map({ json_path: 'status', expected_value: 'ok', json_path_operator: 'contains' }).entry?.conditions,
    ).toEqual(['[BODY].status == pat(*ok*)'])
    expect(map({ json_path: 'status', expected_value: 'down', json_path_operator: '!=' }).entry?.conditions).toEqual([
      '[BODY].status != "down"',
    ])
  })

  it('leaves a JSONata expression and an ordering of text behind, with the reason', () => {
    const expression = map({ json_path: '$sum(items.price)', expected_value: '10' })
    expect(expression.entry).toBeUndefined()
    expect(expression.unmapped[0]?.reason).toBe(
      'JSON query "$sum(items.price)" is a JSONata expression, not a plain path',
    )
    const text = map({ json_path: 'version', expected_value: 'b', json_path_operator: '>' })
    expect(text.entry).toBeUndefined()
    expect(text.unmapped[0]?.reason).toBe('JSON query operator ">" with "b" has no Guard condition')
  })
})

describe('monitor settings', () => {
  it('keeps the timeout below the interval and the interval within Guard’s bounds', () => {
    expect(map({ type: 'http', interval: 20, timeout: 48 }).entry).toMatchObject({ checkInterval: 20, timeout: 19 })
    expect(map({ type: 'http', interval: 2 }).entry).toMatchObject({ checkInterval: 5 })
  })

  it('reports authentication Guard lacks and imports the monitor without it', () => {
    const { entry, unmapped } = map({ type: 'http', auth_method: 'ntlm', basic_auth_user: 'u', basic_auth_pass: 'p' })
    expect(entry).not.toHaveProperty('credentials')
    expect(unmapped).toEqual([
      {
        source: 'monitor',
        item: 'API: authentication',
        reason: 'Guard has no ntlm authentication; imported without it',
      },
    ])
  })

  it('maps a WebSocket upgrade and an SMTP monitor to their protocols', () => {
    expect(
      map({
        type: 'websocket-upgrade',
        url: 'wss://ws.example.com:8443/live?v=2',
        ignore_tls: 1,
        ws_subprotocol: 'graphql-ws, json',
        auth_method: 'bearer',
        bearer_token: 'ws-secret',
      }).entry,
    ).toMatchObject({
      protocol: 'websocket',
      protocolConfig: {
        host: 'ws.example.com',
        port: 8443,
        path: '/live?v=2',
        tls: true,
        ignoreTlsErrors: true,
        subprotocols: ['graphql-ws', 'json'],
        authorization: ['${env:', 'GUARD_SERVICE_API_AUTHORIZATION}'].join(''),
      },
    })
    expect(map({ type: 'smtp', hostname: 'mail.example.com', port: 465, smtp_security: 'secure' }).entry).toMatchObject(
      {
        protocol: 'smtp',
        protocolConfig: { host: 'mail.example.com', port: 465, tls: 'implicit' },
      },
    )
  })

  it('reports settings Guard has no place for', () => {
    const { unmapped } = map({
      type: 'dns',
      hostname: 'example.com',
      interval: 60,
      retry_interval: 20,
      resend_interval: 5,
      proxy_id: 1,
      conditions: '[{"variable":"record","operator":"contains","value":"v=spf1"}]',
    })
    expect(unmapped.map((item) => item.item)).toEqual([
      'API: retry interval',
      'API: resend interval',
      'API: proxy',
      'API: conditions',
    ])
  })

  it('keeps the headers Guard can send and reports the others', () => {
    const { entry, unmapped } = map({
      type: 'http',
      auth_method: 'basic',
      basic_auth_user: 'u',
      basic_auth_pass: 'p',
      headers: '{"Host":"a.example.com","Authorization":"Basic x","Bad Name":"1","X-Api-Key":"k1","X-Trace":1}',
    })
    expect(entry?.headers).toEqual({ 'X-Api-Key': ['${env:', 'GUARD_DOMAIN_API_X_API_KEY}'].join(''), 'X-Trace': '1' })
    expect(unmapped.map((item) => `${item.item}: ${item.reason}`)).toEqual([
      'API: header Host: the probe sets it',
      "API: header Authorization: the monitor's authentication sets it",
      'API: header Bad Name: not a valid header',
    ])
    expect(map({ type: 'http', headers: '{"X-A": ' }).unmapped[0]).toEqual({
      source: 'monitor',
      item: 'API: headers',
      reason: 'not valid JSON in Uptime Kuma either; left out',
    })
  })

  it('nests a group in its parent group', () => {
    const context = importContext()
    const monitors = [
      kumaMonitor.parse({ id: 1, name: 'Outer', type: 'group' }),
      kumaMonitor.parse({ id: 2, name: 'Inner', type: 'group', parent: 1 }),
      kumaMonitor.parse({ id: 3, name: 'Site', type: 'http', url: 'https://example.com', parent: 2 }),
    ]
    const mapped = mapMonitors(monitors, links, context)
    expect(mapped.groups).toEqual([
      { id: 'outer', name: 'Outer' },
      { id: 'inner', name: 'Inner', parent: 'outer' },
    ])
    expect(mapped.domains[0]).toMatchObject({ id: 'site', group: 'inner' })
  })
})
