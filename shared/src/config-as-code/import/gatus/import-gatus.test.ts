import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importGatus } from './import-gatus.ts'
import { GatusConfigError, gatusEnvToPlaceholders } from './read-gatus-config.ts'

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name)
const NOW = { now: new Date('2026-11-28T00:00:00Z') }
/** A `${env:NAME}` reference, spelled without tripping the template-string lint. */
const env = (name: string) => `\${env:${name}}`
const items = (unmapped: Array<{ item: string }>) => unmapped.map(({ item }) => item)

async function gatusFile(text: string) {
  const directory = await mkdtemp(join(tmpdir(), 'guard-gatus-'))
  const path = join(directory, 'config.yaml')
  await writeFile(path, text)
  return path
}

describe('importGatus on the README examples', () => {
  it('makes a group per endpoint group and a domain per HTTP endpoint (Endpoint groups)', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-endpoint-groups.yaml'))
    const domain = (id: string, name: string, group?: string) => ({
      id,
      name,
      url: 'https://example.org/',
      conditions: ['[STATUS] == 200'],
      checkInterval: 300,
      ...(group ? { group } : {}),
    })
    expect(document).toEqual({
      version: 1,
      groups: [
        { id: 'core', name: 'core' },
        { id: 'internal', name: 'internal' },
      ],
      domains: [
        domain('frontend', 'frontend', 'core'),
        domain('backend', 'backend', 'core'),
        domain('monitoring', 'monitoring', 'internal'),
        domain('nas', 'nas', 'internal'),
        domain('random-endpoint-that-is-not-part-of-a-group', 'random endpoint that is not part of a group'),
      ],
    })
    expect(unmapped).toEqual([])
  })

  it('turns slack into a channel the monitor notifies, its webhook a placeholder, the lowest threshold the monitor’s', async () => {
    const { document, unmapped, secrets } = await importGatus(fixture('readme-alerting-slack.yaml'))
    expect(document).toEqual({
      version: 1,
      channels: [
        {
          id: 'slack',
          name: 'slack (from Gatus)',
          provider: 'slack',
          config: { webhookUrl: env('GUARD_CHANNEL_SLACK_WEBHOOK_URL') },
          addToDefaultRoute: false,
        },
      ],
      domains: [
        {
          id: 'website',
          name: 'website',
          url: 'https://twin.sh/health',
          conditions: ['[STATUS] == 200', '[BODY].status == UP', '[RESPONSE_TIME] < 300'],
          checkInterval: 30,
          failureThreshold: 3,
          channels: ['slack'],
        },
      ],
    })
    expect(JSON.stringify(document)).not.toContain('hooks.slack.com')
    expect(secrets).toEqual([
      {
        name: 'GUARD_CHANNEL_SLACK_WEBHOOK_URL',
        source: fixture('readme-alerting-slack.yaml'),
        item: 'alerting.slack.webhook-url',
      },
    ])
    expect(unmapped).toEqual([
      {
        source: fixture('readme-alerting-slack.yaml'),
        item: 'endpoints["website"].alerts[1].failure-threshold',
        reason:
          'Guard notifies every channel of the monitor after 3 failed checks; alerting after 5 is an escalation step of a notification route',
      },
    ])
  })

  it('carries PagerDuty’s integration key and lists its per-group override and success thresholds', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-alerting-pagerduty.yaml'))
    expect(document.channels).toEqual([
      {
        id: 'pagerduty',
        name: 'pagerduty (from Gatus)',
        provider: 'pagerduty',
        config: { routingKey: env('GUARD_CHANNEL_PAGERDUTY_ROUTING_KEY') },
        addToDefaultRoute: false,
      },
    ])
    expect(document.groups).toEqual([{ id: 'core', name: 'core' }])
    expect(document.domains).toEqual([
      {
        id: 'website',
        name: 'website',
        url: 'https://twin.sh/health',
        conditions: ['[STATUS] == 200', '[BODY].status == UP', '[RESPONSE_TIME] < 300'],
        checkInterval: 30,
        failureThreshold: 3,
        channels: ['pagerduty'],
      },
      {
        id: 'back-end',
        name: 'back-end',
        url: 'https://example.org/',
        conditions: ['[STATUS] == 200', '[CERTIFICATE_EXPIRATION] > 48h'],
        checkInterval: 300,
        group: 'core',
        failureThreshold: 3,
        channels: ['pagerduty'],
      },
    ])
    expect(items(unmapped)).toEqual([
      'alerting.pagerduty.overrides[0]',
      'endpoints["website"].alerts[0].success-threshold',
      'endpoints["back-end"].alerts[0].success-threshold',
    ])
  })

  it('maps Telegram’s token, chat id and topic', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-alerting-telegram.yaml'))
    expect(document.channels).toEqual([
      {
        id: 'telegram',
        name: 'telegram (from Gatus)',
        provider: 'telegram',
        config: { botToken: env('GUARD_CHANNEL_TELEGRAM_BOT_TOKEN'), chatId: '0123456789', messageThreadId: 7 },
        addToDefaultRoute: false,
      },
    ])
    expect(document.domains?.[0]).toMatchObject({ id: 'website', failureThreshold: 3, channels: ['telegram'] })
    expect(unmapped).toEqual([])
  })

  it('keeps e-mail’s recipients and lists the SMTP settings Guard takes from GUARD_SMTP_URL', async () => {
    const { document, unmapped, secrets } = await importGatus(fixture('readme-alerting-email.yaml'))
    expect(document.channels).toEqual([
      {
        id: 'email',
        name: 'email (from Gatus)',
        provider: 'email',
        config: { addresses: ['recipient1@example.com', 'recipient2@example.com'] },
        addToDefaultRoute: false,
      },
    ])
    expect(items(unmapped)).toEqual([
      'alerting.email.{from, username, password, host, port, client}',
      'alerting.email.overrides[0]',
    ])
    expect(unmapped[0]?.reason).toMatch(/GUARD_SMTP_URL/)
    expect(secrets).toEqual([])
    expect(JSON.stringify(document)).not.toContain('hunter2')
  })

  it('turns a custom alert into a templated webhook, placeholders into Liquid', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-alerting-custom.yaml'))
    expect(document.channels).toEqual([
      {
        id: 'custom-webhook',
        name: 'custom (from Gatus)',
        provider: 'templated-webhook',
        config: {
          url: 'https://hooks.slack.com/services/**********/**********/**********',
          method: 'POST',
          bodyTemplate:
            '{\n  "text": "{% if kind == "resolved" %}RESOLVED{% else %}TRIGGERED{% endif %}:  - {{ title }} - {{ text }} - "\n}\n',
        },
        addToDefaultRoute: false,
      },
    ])
    expect(document.domains?.[0]).toMatchObject({ failureThreshold: 10, channels: ['custom-webhook'] })
    expect(items(unmapped)).toEqual([
      'alerting.custom.body [ENDPOINT_GROUP]',
      'alerting.custom.body [RESULT_ERRORS]',
      'endpoints["website"].alerts[0].success-threshold',
    ])
  })

  it('fills alerts from the providers’ default-alert', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-alerting-default-alert.yaml'))
    expect(document.channels?.map(({ id, provider }) => ({ id, provider }))).toEqual([
      { id: 'slack', provider: 'slack' },
      { id: 'pagerduty', provider: 'pagerduty' },
    ])
    for (const domain of document.domains ?? []) {
      expect(domain).toMatchObject({ failureThreshold: 3, channels: ['slack', 'pagerduty'] })
    }
    expect(items(unmapped)).toEqual([
      'endpoints["endpoint-1"].alerts[1].failure-threshold',
      'endpoints["endpoint-2"].alerts[1].failure-threshold',
    ])
  })

  it('maps Teams workflows to Guard’s teams channel', async () => {
    const { document } = await importGatus(fixture('readme-alerting-teams-workflows.yaml'))
    expect(document.channels).toEqual([
      {
        id: 'teams-workflows',
        name: 'teams-workflows (from Gatus)',
        provider: 'teams',
        config: { webhookUrl: env('GUARD_CHANNEL_TEAMS_WORKFLOWS_WEBHOOK_URL') },
        addToDefaultRoute: false,
      },
    ])
  })

  it('makes an external endpoint a heartbeat due every heartbeat.interval, and says the token does not carry over', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-external-endpoints.yaml'))
    expect(document).toEqual({
      version: 1,
      groups: [{ id: 'core', name: 'core' }],
      heartbeats: [{ id: 'ext-ep-test', name: 'ext-ep-test', every: 1800, grace: 0, group: 'core' }],
    })
    expect(unmapped.map(({ item, reason }) => [item, reason.slice(0, 40)])).toEqual([
      ['external-endpoints["ext-ep-test"].token', 'Guard gives the heartbeat its own ping U'],
      ['external-endpoints["ext-ep-test"].alerts[0]', 'alerting.discord is not configured, so G'],
    ])
  })

  it('lists every announcement as not carried', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-announcements.yaml'))
    expect(document).toEqual({ version: 1 })
    expect(items(unmapped)).toEqual([
      'announcements[0] "Scheduled maintenance on database servers from 14:00 to 16:00 UTC"',
      'announcements[1] "Database maintenance completed successfully. All systems operational."',
      'announcements[2] "New monitoring dashboard features will be deployed next week"',
      'announcements[3] "Elevated API response times observed for US customers"',
    ])
  })

  it('makes the global maintenance weekly windows for the organization, one per day, in the zone’s offset', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-maintenance.yaml'), NOW)
    expect(document.maintenance).toEqual([
      {
        id: 'maintenance-monday',
        title: 'Maintenance (from Gatus)',
        startsAt: '2026-11-30T23:00:00+01:00',
        endsAt: '2026-12-01T00:00:00+01:00',
        recurrence: 'weekly',
        until: null,
      },
      {
        id: 'maintenance-thursday',
        title: 'Maintenance (from Gatus)',
        startsAt: '2026-12-03T23:00:00+01:00',
        endsAt: '2026-12-04T00:00:00+01:00',
        recurrence: 'weekly',
        until: null,
      },
    ])
    expect(unmapped).toEqual([
      expect.objectContaining({ item: 'maintenance.timezone', reason: expect.stringMatching(/daylight saving/) }),
    ])
  })

  it('makes an endpoint’s maintenance windows daily windows of its monitor', async () => {
    const { document } = await importGatus(fixture('readme-maintenance-windows.yaml'), NOW)
    expect(document.domains).toEqual([{ id: 'endpoint-1', name: 'endpoint-1', url: 'https://example.org' }])
    expect(document.maintenance).toEqual([
      {
        id: 'endpoint-1-maintenance',
        title: 'endpoint-1 maintenance',
        startsAt: '2026-11-28T07:30:00+01:00',
        endsAt: '2026-11-28T08:10:00+01:00',
        recurrence: 'daily',
        until: null,
        monitors: ['endpoint-1'],
      },
      {
        id: 'endpoint-1-maintenance-2',
        title: 'endpoint-1 maintenance',
        startsAt: '2026-11-28T14:30:00+01:00',
        endsAt: '2026-11-28T15:30:00+01:00',
        recurrence: 'daily',
        until: null,
        monitors: ['endpoint-1'],
      },
    ])
  })

  it('reads the FAQ examples as a directory, each scheme as the service Guard has for it', async () => {
    const { document, unmapped } = await importGatus(fixture('readme-faq'))
    expect(document.domains).toEqual([
      {
        id: 'check-domain-and-certificate-expiration',
        name: 'check-domain-and-certificate-expiration',
        url: 'https://example.org',
        conditions: ['[CERTIFICATE_EXPIRATION] > 240h'],
        checkInterval: 3600,
      },
    ])
    expect(document.services).toEqual([
      {
        id: 'example-dns-query',
        name: 'example-dns-query',
        protocol: 'dns',
        protocolConfig: { host: 'example.com', recordType: 'A', server: '8.8.8.8', expected: '93.184.215.14' },
      },
      {
        id: 'my-grpc',
        name: 'my-grpc',
        protocol: 'grpc',
        protocolConfig: { host: 'localhost', port: 50051 },
        checkInterval: 30,
        timeout: 5,
      },
      {
        id: 'my-grpcs',
        name: 'my-grpcs',
        protocol: 'grpc',
        protocolConfig: { host: 'example.com', port: 443, tls: true },
        timeout: 5,
      },
      { id: 'ping-example', name: 'ping-example', protocol: 'icmp', protocolConfig: { host: 'example.com' } },
      {
        id: 'ssh-example-password',
        name: 'ssh-example-password',
        protocol: 'ssh',
        protocolConfig: { host: 'example.com', port: 22 },
        checkInterval: 60,
      },
      {
        id: 'ssh-example-key',
        name: 'ssh-example-key',
        protocol: 'ssh',
        protocolConfig: { host: 'example.com', port: 22 },
        checkInterval: 60,
      },
      {
        id: 'redis',
        name: 'redis',
        protocol: 'tcp',
        protocolConfig: { host: '127.0.0.1', port: 6379 },
        checkInterval: 30,
      },
      {
        id: 'tls-ldaps-example',
        name: 'tls-ldaps-example',
        protocol: 'tls',
        protocolConfig: { host: 'ldap.example.com', port: 636, warnDays: 2 },
        checkInterval: 1800,
        timeout: 5,
      },
      { id: 'example-2', name: 'example', protocol: 'udp', protocolConfig: { host: 'example.org', port: 80 } },
      {
        id: 'example-3',
        name: 'example',
        protocol: 'websocket',
        protocolConfig: { host: 'echo.websocket.org', tls: true, send: 'status', replyContains: 'served by' },
      },
    ])
    expect(unmapped.map(({ source, item }) => `${source.slice(fixture('readme-faq').length + 1)}: ${item}`)).toEqual([
      'domain-expiration.yaml: endpoints["check-domain-and-certificate-expiration"].conditions[0] [DOMAIN_EXPIRATION] > 720h',
      'grpcs.yaml: endpoints["my-grpcs"].client.tls',
      'sctp.yaml: endpoints["example"]',
      'ssh.yaml: endpoints["ssh-example-password"].ssh',
      'ssh.yaml: endpoints["ssh-example-password"].conditions[1] [STATUS] == 0',
      'ssh.yaml: endpoints["ssh-example-password"].conditions[2] [BODY].memory.used > 500',
      'ssh.yaml: endpoints["ssh-example-key"].ssh',
      'ssh.yaml: endpoints["ssh-example-key"].conditions[1] [STATUS] == 0',
      'starttls.yaml: endpoints["starttls-smtp-example"]',
      'tls.yaml: endpoints["tls-ldaps-example"].conditions[1] [CERTIFICATE_EXPIRATION] > 48h',
      'udp.yaml: endpoints["example"].url',
    ])
  })
})

describe('importGatus on the .examples configurations', () => {
  it('merges a directory as Gatus does and lists what the global file sets', async () => {
    const directory = fixture('examples-multiple-config-files')
    const { document, unmapped } = await importGatus(directory)
    expect(document).toEqual({
      version: 1,
      groups: [
        { id: 'backend', name: 'backend' },
        { id: 'frontend', name: 'frontend' },
      ],
      domains: [
        {
          id: 'check-if-api-is-healthy',
          name: 'check-if-api-is-healthy',
          url: 'https://twin.sh/health',
          conditions: ['[STATUS] == 200', '[BODY].status == UP', '[RESPONSE_TIME] < 1000'],
          checkInterval: 300,
          group: 'backend',
        },
        {
          id: 'check-domain-expiration',
          name: 'check-domain-expiration',
          url: 'https://example.org',
          checkInterval: 21_600,
        },
        {
          id: 'make-sure-html-rendering-works',
          name: 'make-sure-html-rendering-works',
          url: 'https://example.org',
          conditions: ['[STATUS] == 200', '[BODY] == pat(*<h1>Example Domain</h1>*)'],
          checkInterval: 300,
          group: 'frontend',
        },
      ],
      services: [
        {
          id: 'check-if-website-is-pingable',
          name: 'check-if-website-is-pingable',
          protocol: 'icmp',
          protocolConfig: { host: 'example.org' },
          checkInterval: 60,
        },
      ],
    })
    expect(unmapped.map(({ source, item }) => [source, item])).toEqual([
      [
        join(directory, 'backend.yaml'),
        'endpoints["check-domain-expiration"].conditions[0] [DOMAIN_EXPIRATION] > 720h',
      ],
      [directory, 'metrics'],
      [join(directory, 'global.yaml'), 'ui'],
    ])
  })

  it('reads the postgres example: DNS and ICMP services, storage not carried', async () => {
    const { document, unmapped } = await importGatus(fixture('examples-postgres-storage.yaml'))
    expect(document.groups).toEqual([
      { id: 'core', name: 'core' },
      { id: 'internal', name: 'internal' },
    ])
    expect(document.domains?.map(({ id, group }) => [id, group])).toEqual([
      ['back-end', 'core'],
      ['monitoring', 'internal'],
      ['nas', 'internal'],
    ])
    expect(document.services).toEqual([
      {
        id: 'example-dns-query',
        name: 'example-dns-query',
        protocol: 'dns',
        protocolConfig: { host: 'example.com', recordType: 'A', server: '8.8.8.8', expected: '93.184.215.14' },
        checkInterval: 300,
      },
      {
        id: 'icmp-ping',
        name: 'icmp-ping',
        protocol: 'icmp',
        protocolConfig: { host: 'example.org' },
        checkInterval: 60,
      },
    ])
    expect(items(unmapped)).toEqual(['storage'])
  })

  it('reads the mattermost example and lists its insecure flag', async () => {
    const { document, unmapped } = await importGatus(fixture('examples-mattermost.yaml'))
    expect(document.channels).toEqual([
      {
        id: 'mattermost',
        name: 'mattermost (from Gatus)',
        provider: 'mattermost',
        config: { webhookUrl: env('GUARD_CHANNEL_MATTERMOST_WEBHOOK_URL') },
        addToDefaultRoute: false,
      },
    ])
    expect(document.domains?.[0]).toMatchObject({
      id: 'example',
      checkInterval: 60,
      failureThreshold: 3,
      channels: ['mattermost'],
    })
    expect(items(unmapped)).toEqual(['alerting.mattermost.insecure'])
  })
})

describe('importGatus on what the examples leave out', () => {
  it('keeps Gatus’s environment variables as references and $$ as a dollar', () => {
    expect(gatusEnvToPlaceholders(`postgres://\${POSTGRES_USER}:$PASSWORD@db/$$x`)).toBe(
      `postgres://${env('POSTGRES_USER')}:${env('PASSWORD')}@db/$x`,
    )
  })

  it('turns a bearer header into credentials, extra labels into tags, and lists unknown conditions', async () => {
    const path = await gatusFile(`
alerting:
  discord:
    webhook-url: "\${DISCORD_WEBHOOK}"
endpoints:
  - name: API
    url: https://api.example.org/graphql
    method: post
    graphql: true
    body: "{ health }"
    headers:
      Authorization: Bearer abc123
      Host: api.internal
      X-Trace: on
    extra-labels:
      env: prod
    client:
      timeout: 5s
      insecure: true
      ignore-redirect: true
      proxy-url: http://proxy
    conditions:
      - "[STATUS] == 200"
      - "[DNS_RCODE] == NOERROR"
      - "[BODY].data == "
    alerts:
      - type: discord
        enabled: false
      - type: slack
    ui:
      hide-url: true
`)
    const { document, unmapped, secrets } = await importGatus(path)
    expect(document.tags).toEqual([{ id: 'env-prod', name: 'env:prod' }])
    expect(document.channels).toEqual([
      {
        id: 'discord',
        name: 'discord (from Gatus)',
        provider: 'discord',
        config: { webhookUrl: env('DISCORD_WEBHOOK') },
        addToDefaultRoute: false,
      },
    ])
    expect(document.domains).toEqual([
      {
        id: 'api',
        name: 'API',
        url: 'https://api.example.org/graphql',
        method: 'POST',
        authType: 'bearer',
        credentials: { token: env('GUARD_DOMAIN_API_TOKEN') },
        body: '{"query":"{ health }"}',
        headers: { 'X-Trace': 'on', 'Content-Type': 'application/json' },
        ignoreTlsErrors: true,
        followRedirects: false,
        conditions: ['[STATUS] == 200'],
        timeout: 5,
        tags: ['env-prod'],
      },
    ])
    expect(secrets.map(({ name }) => name)).toEqual(['DISCORD_WEBHOOK', 'GUARD_DOMAIN_API_TOKEN'])
    expect(items(unmapped)).toEqual([
      'endpoints["API"].headers.Host',
      'endpoints["API"].conditions[1] [DNS_RCODE] == NOERROR',
      'endpoints["API"].conditions[2] [BODY].data == ',
      'endpoints["API"].alerts[1]',
      'endpoints["API"].ui',
      'endpoints["API"].client.proxy-url',
    ])
    expect(unmapped[2]?.reason).toMatch(/^Guard's condition parser refuses it: expected a value after ==/)
  })

  it('makes a service’s response-time condition its down threshold, unless the timeout comes first', async () => {
    const path = await gatusFile(`
endpoints:
  - { name: db, url: "tcp://db:5432", conditions: ["[CONNECTED] == true", "[RESPONSE_TIME] < 500"] }
  - { name: slow, url: "tcp://db:5433", client: { timeout: 2s }, conditions: ["[RESPONSE_TIME] <= 5000"] }
`)
    const { document, unmapped } = await importGatus(path)
    expect(document.services).toEqual([
      { id: 'db', name: 'db', protocol: 'tcp', protocolConfig: { host: 'db', port: 5432 }, downAboveMs: 500 },
      { id: 'slow', name: 'slow', protocol: 'tcp', protocolConfig: { host: 'db', port: 5433 }, timeout: 2 },
    ])
    expect(unmapped).toEqual([
      expect.objectContaining({
        item: 'endpoints["slow"].conditions [RESPONSE_TIME]',
        reason: 'the check times out after 2000 ms, before a threshold of 5000 ms could apply',
      }),
    ])
  })

  it('lists an endpoint whose URL starts with an environment variable', async () => {
    const path = await gatusFile(
      `endpoints:\n  - { name: api, url: "\${BASE_URL}/health", conditions: ["[STATUS] == 200"] }\n`,
    )
    const { document, unmapped } = await importGatus(path)
    expect(document).toEqual({ version: 1 })
    expect(unmapped).toEqual([
      expect.objectContaining({
        item: 'endpoints["api"]',
        reason: expect.stringMatching(/^the URL starts with an environment variable/),
      }),
    ])
  })

  it('gives endpoints of the same name in two groups distinct ids', async () => {
    const path = await gatusFile(`
endpoints:
  - { name: api, group: eu, url: "https://eu.example.org", conditions: ["[STATUS] == 200"] }
  - { name: api, group: us, url: "https://us.example.org", conditions: ["[STATUS] == 200"] }
`)
    const { document } = await importGatus(path)
    expect(document.domains?.map(({ id }) => id)).toEqual(['api', 'us-api'])
  })

  it('refuses a directory that sets the same value twice, as Gatus does', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'guard-gatus-'))
    await writeFile(join(directory, 'a.yaml'), 'metrics: true\n')
    await writeFile(join(directory, 'b.yml'), 'metrics: false\n')
    await expect(importGatus(directory)).rejects.toThrow(GatusConfigError)
    await expect(importGatus(directory)).rejects.toThrow(/metrics is given more than once \(again in .*b\.yml\)/)
  })

  it('lists an external endpoint without a heartbeat interval and a provider Guard has no channel for', async () => {
    const path = await gatusFile(`
alerting:
  awsses:
    region: eu-west-1
external-endpoints:
  - name: job
    token: t
`)
    const { document, unmapped } = await importGatus(path)
    expect(document).toEqual({ version: 1 })
    expect(unmapped.map(({ item, reason }) => [item, reason])).toEqual([
      ['alerting.awsses', 'Guard has no awsses channel; its alerts are not carried'],
      [
        'external-endpoints["job"]',
        'no heartbeat.interval: a Guard heartbeat expects a ping on a schedule; give it one (every) to carry this endpoint',
      ],
    ])
  })
})
