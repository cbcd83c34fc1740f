import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { sampleHeartbeat } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { applyHeartbeats } from '../services/devices/apply-heartbeats.ts'
import { storeHeartbeats } from '../services/devices/store-heartbeats.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { authenticateWithUsers, collectorForTest, seedIntegrationAccounts, userCaller } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>
const ORG = DEFAULT_ORGANIZATION.id
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/**
 * Every route of the collector, called by members of another organization against this
 * organization's resources. `own` routes act in the caller's own organization by design (creating a
 * resource, tenant-free fetches, platform metrics): they must still return none of our data.
 */
const table: Array<{
  method: Method
  path: string
  url: string
  body?: Record<string, unknown>
  own?: true
  /** Statuses other than 403 and 404 that still mean "refused". */
  refused?: number[]
  /** A public file, the same bytes for everyone: compared with what an anonymous caller gets. */
  sameForAll?: true
  /**
   * Identity answers it, asked with the caller's own token for the caller's own organization
   * (organization.test.ts): this test runs no identity, so 503 is the answer, and it reveals nothing.
   */
  delegated?: true
}> = [
  { method: 'GET', path: '/api/domains', url: `/api/domains?organization=${ORG}` },
  { method: 'GET', path: '/api/domains', url: `/api/domains?offset=0&organization=${ORG}` },
  {
    method: 'POST',
    path: '/api/domains',
    url: `/api/domains?organization=${ORG}`,
    body: { url: 'https://x.example' },
  },
  { method: 'POST', path: '/api/domains', url: '/api/domains', body: { url: 'https://x.example' }, own: true },
  { method: 'GET', path: '/api/domains/stats', url: `/api/domains/stats?organization=${ORG}` },
  { method: 'GET', path: '/api/domains/response-times', url: `/api/domains/response-times?organization=${ORG}` },
  {
    method: 'GET',
    path: '/api/domains/fetch-title',
    url: '/api/domains/fetch-title?url=http%3A%2F%2F127.0.0.1%3A1%2F',
    own: true,
  },
  { method: 'GET', path: '/api/domains/{id}', url: '/api/domains/:domain' },
  { method: 'PUT', path: '/api/domains/{id}', url: '/api/domains/:domain', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/domains/{id}', url: '/api/domains/:domain' },
  { method: 'GET', path: '/api/domains/{id}/stats', url: '/api/domains/:domain/stats?period=90d' },
  { method: 'GET', path: '/api/domains/{id}/summary', url: '/api/domains/:domain/summary' },
  { method: 'GET', path: '/api/domains/{id}/icon', url: '/api/domains/:domain/icon' },
  { method: 'GET', path: '/api/domains/{id}/monitoring/history', url: '/api/domains/:domain/monitoring/history' },
  { method: 'GET', path: '/api/domains/{id}/monitoring/locations', url: '/api/domains/:domain/monitoring/locations' },
  { method: 'GET', path: '/api/domains/{id}/monitoring/latency', url: '/api/domains/:domain/monitoring/latency' },
  { method: 'GET', path: '/api/services', url: `/api/services?organizationId=${ORG}` },
  {
    method: 'POST',
    path: '/api/services',
    url: `/api/services?organizationId=${ORG}`,
    body: { name: 's', protocol: 'tcp', protocolConfig: { host: 'x.example', port: 1 } },
  },
  {
    method: 'POST',
    path: '/api/services',
    url: '/api/services',
    body: { name: 's', protocol: 'tcp', protocolConfig: { host: 'x.example', port: 1 } },
    own: true,
  },
  { method: 'GET', path: '/api/services/{id}', url: '/api/services/:service' },
  { method: 'GET', path: '/api/monitors/{id}/dependencies', url: '/api/monitors/:service/dependencies' },
  {
    method: 'PUT',
    path: '/api/monitors/{id}/dependencies',
    url: '/api/monitors/:service/dependencies',
    body: { dependsOn: [':domain'] },
  },
  { method: 'PUT', path: '/api/services/{id}', url: '/api/services/:service', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/services/{id}', url: '/api/services/:service' },
  { method: 'POST', path: '/api/services/{id}/check', url: '/api/services/:service/check' },
  { method: 'GET', path: '/api/services/{id}/history', url: '/api/services/:service/history' },
  { method: 'GET', path: '/api/services/{id}/latency', url: '/api/services/:service/latency' },
  { method: 'GET', path: '/api/synthetics', url: `/api/synthetics?organizationId=${ORG}` },
  {
    method: 'POST',
    path: '/api/synthetics',
    url: `/api/synthetics?organizationId=${ORG}`,
    body: { name: 's', steps: [{ name: 's', method: 'GET', url: 'https://x.example/' }] },
  },
  {
    method: 'POST',
    path: '/api/synthetics',
    url: '/api/synthetics',
    body: { name: 's', steps: [{ name: 's', method: 'GET', url: 'https://x.example/' }] },
    own: true,
  },
  { method: 'GET', path: '/api/synthetics/{id}', url: '/api/synthetics/:synthetic' },
  { method: 'PUT', path: '/api/synthetics/{id}', url: '/api/synthetics/:synthetic', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/synthetics/{id}', url: '/api/synthetics/:synthetic' },
  { method: 'POST', path: '/api/synthetics/{id}/run', url: '/api/synthetics/:synthetic/run' },
  { method: 'GET', path: '/api/synthetics/{id}/runs', url: '/api/synthetics/:synthetic/runs' },
  {
    method: 'GET',
    path: '/api/synthetics/{id}/runs/{runId}/artifacts/{name}',
    url: '/api/synthetics/:synthetic/runs/run-1/artifacts/screenshot.png',
  },
  { method: 'GET', path: '/api/heartbeats', url: `/api/heartbeats?organizationId=${ORG}` },
  {
    method: 'POST',
    path: '/api/heartbeats',
    url: `/api/heartbeats?organizationId=${ORG}`,
    body: { name: 'h', every: 60 },
  },
  { method: 'POST', path: '/api/heartbeats', url: '/api/heartbeats', body: { name: 'h', every: 60 }, own: true },
  { method: 'GET', path: '/api/heartbeats/{id}', url: '/api/heartbeats/:heartbeat' },
  { method: 'PATCH', path: '/api/heartbeats/{id}', url: '/api/heartbeats/:heartbeat', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/heartbeats/{id}', url: '/api/heartbeats/:heartbeat' },
  { method: 'POST', path: '/api/heartbeats/{id}/regenerate-token', url: '/api/heartbeats/:heartbeat/regenerate-token' },
  { method: 'GET', path: '/api/heartbeats/{id}/pings', url: '/api/heartbeats/:heartbeat/pings' },
  { method: 'GET', path: '/api/heartbeats/{id}/daily', url: '/api/heartbeats/:heartbeat/daily?days=90' },
  { method: 'GET', path: '/api/heartbeats/{id}/daily', url: '/api/heartbeats/:heartbeat/daily?format=csv' },
  // Pings carry no credentials but the token: a token that is not ours is simply not found.
  { method: 'GET', path: '/ping/{token}', url: '/ping/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  { method: 'POST', path: '/ping/{token}', url: '/ping/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  { method: 'GET', path: '/ping/{token}/{action}', url: '/ping/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/fail' },
  { method: 'POST', path: '/ping/{token}/{action}', url: '/ping/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/3' },
  { method: 'GET', path: '/api/usage', url: `/api/usage?organizationId=${ORG}` },
  { method: 'GET', path: '/api/usage', url: '/api/usage', own: true },
  {
    method: 'POST',
    path: '/api/monitors/test',
    url: '/api/monitors/test',
    body: { location: 'fra', domain: { url: 'https://x.example' } },
    own: true,
  },
  { method: 'GET', path: '/api/locations', url: '/api/locations', own: true },
  { method: 'GET', path: '/api/monitors', url: `/api/monitors?organization=${ORG}` },
  { method: 'GET', path: '/api/monitors', url: '/api/monitors?search=secret', own: true },
  { method: 'GET', path: '/api/tags', url: `/api/tags?organizationId=${ORG}` },
  { method: 'GET', path: '/api/tags', url: '/api/tags', own: true },
  {
    method: 'PUT',
    path: '/api/tags/{key}',
    url: `/api/tags/secret-tag?organizationId=${ORG}`,
    body: { color: '#ff0000' },
  },
  { method: 'PUT', path: '/api/tags/{key}', url: '/api/tags/team', body: { color: '#ff0000' }, own: true },
  {
    method: 'POST',
    path: '/api/monitors/bulk',
    url: '/api/monitors/bulk',
    body: { filter: {}, action: 'delete', dryRun: false, organizationId: ORG },
  },
  // The caller's own organization: our monitors are never matched, by id or by tag.
  {
    method: 'POST',
    path: '/api/monitors/bulk',
    url: '/api/monitors/bulk',
    body: { filter: { ids: [':domain', ':service', ':heartbeat', ':device'] }, action: 'delete', dryRun: false },
    own: true,
  },
  {
    method: 'POST',
    path: '/api/monitors/bulk',
    url: '/api/monitors/bulk',
    body: { filter: { tags: ['secret-tag'] }, action: 'pause', dryRun: false },
    own: true,
  },
  { method: 'GET', path: '/api/protocols', url: '/api/protocols', own: true },
  {
    method: 'GET',
    path: '/api/monitors/recent-checks',
    url: `/api/monitors/recent-checks?ids=:domain,:service,:heartbeat&organizationId=${ORG}`,
  },
  {
    method: 'GET',
    path: '/api/monitors/recent-checks',
    url: '/api/monitors/recent-checks?ids=:domain,:service,:heartbeat',
    own: true,
  },
  { method: 'GET', path: '/api-keys', url: '/api-keys', own: true },
  {
    method: 'POST',
    path: '/api-keys',
    url: '/api-keys',
    body: { name: 'k', permissions: ['domains:read'] },
    own: true,
  },
  { method: 'DELETE', path: '/api-keys/{keyId}', url: '/api-keys/:key' },
  { method: 'GET', path: '/api/incidents', url: `/api/incidents?organizationId=${ORG}` },
  { method: 'POST', path: '/api/incidents', url: `/api/incidents?organizationId=${ORG}`, body: { title: 'x' } },
  { method: 'POST', path: '/api/incidents', url: '/api/incidents', body: { title: 'x' }, own: true },
  {
    method: 'POST',
    path: '/api/incidents',
    url: '/api/incidents',
    body: { title: 'x', affectedDomains: [':domain'] },
    own: true,
  },
  { method: 'GET', path: '/api/incidents/{id}', url: '/api/incidents/:incident' },
  { method: 'PUT', path: '/api/incidents/{id}', url: '/api/incidents/:incident', body: { status: 'resolved' } },
  { method: 'GET', path: '/api/incidents/{id}/updates', url: '/api/incidents/:incident/updates' },
  {
    method: 'POST',
    path: '/api/incidents/{id}/updates',
    url: '/api/incidents/:incident/updates',
    body: { message: 'm', status: 'resolved' },
  },
  { method: 'GET', path: '/api/incidents/{id}/comments', url: '/api/incidents/:incident/comments' },
  { method: 'GET', path: '/api/incidents/{id}/public', url: '/api/incidents/:incident/public' },
  {
    method: 'PUT',
    path: '/api/incidents/{id}/public',
    url: '/api/incidents/:incident/public',
    body: { publicTitle: 'hijacked', published: true },
  },
  {
    method: 'POST',
    path: '/api/incidents/{id}/comments',
    url: '/api/incidents/:incident/comments',
    body: { content: 'c' },
  },
  // Monitoring as code acts in the caller's own organization: pruning everything unmanaged there
  // leaves ours alone (checked below), and export shows none of ours.
  {
    method: 'POST',
    path: '/api/config/plan',
    url: '/api/config/plan?prune=true&pruneUnmanaged=true',
    body: { version: 1 },
    own: true,
  },
  {
    method: 'POST',
    path: '/api/config/apply',
    url: '/api/config/apply?prune=true&pruneUnmanaged=true',
    body: { version: 1 },
    own: true,
  },
  { method: 'GET', path: '/api/config/export', url: '/api/config/export', own: true },
  { method: 'GET', path: '/api/config/managed', url: '/api/config/managed', own: true },
  { method: 'GET', path: '/api/maintenance-windows', url: `/api/maintenance-windows?organizationId=${ORG}` },
  {
    method: 'POST',
    path: '/api/maintenance-windows',
    url: `/api/maintenance-windows?organizationId=${ORG}`,
    body: { title: 't', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' },
  },
  {
    method: 'POST',
    path: '/api/maintenance-windows',
    url: '/api/maintenance-windows',
    body: { title: 't', monitorId: ':domain', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' },
    own: true,
  },
  { method: 'GET', path: '/api/maintenance-windows/{id}', url: '/api/maintenance-windows/:window' },
  {
    method: 'PUT',
    path: '/api/maintenance-windows/{id}',
    url: '/api/maintenance-windows/:window',
    body: { title: 'hijacked' },
  },
  { method: 'DELETE', path: '/api/maintenance-windows/{id}', url: '/api/maintenance-windows/:window' },
  { method: 'GET', path: '/api/groups', url: `/api/groups?organizationId=${ORG}` },
  { method: 'GET', path: '/api/groups', url: '/api/groups', own: true },
  { method: 'POST', path: '/api/groups', url: `/api/groups?organizationId=${ORG}`, body: { name: 'g' } },
  { method: 'POST', path: '/api/groups', url: '/api/groups', body: { name: 'g', parentId: ':group' }, own: true },
  { method: 'GET', path: '/api/groups/{id}', url: '/api/groups/:group' },
  // A list filtered by our group, in the caller's own organization: the group is not found there.
  { method: 'GET', path: '/api/domains', url: '/api/domains?groupId=:group&includeSubgroups=true' },
  { method: 'GET', path: '/api/devices', url: '/api/devices?groupId=:group' },
  { method: 'PUT', path: '/api/groups/{id}', url: '/api/groups/:group', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/groups/{id}', url: '/api/groups/:group' },
  {
    method: 'PUT',
    path: '/api/groups/{id}/members',
    url: '/api/groups/:group/members',
    body: { remove: [{ kind: 'domain', id: ':domain' }] },
  },
  { method: 'GET', path: '/api/notifications/settings', url: '/api/notifications/settings', own: true },
  {
    method: 'PUT',
    path: '/api/notifications/settings',
    url: '/api/notifications/settings',
    body: { emailWeeklyReports: true },
    own: true,
  },
  { method: 'GET', path: '/api/notifications', url: '/api/notifications', own: true },
  { method: 'PUT', path: '/api/notifications/{id}/read', url: '/api/notifications/:notification/read' },
  { method: 'PUT', path: '/api/notifications/read-all', url: '/api/notifications/read-all', own: true },
  { method: 'GET', path: '/api/notifications/deliveries', url: '/api/notifications/deliveries', own: true },
  { method: 'POST', path: '/api/notifications/test', url: '/api/notifications/test', own: true },
  { method: 'GET', path: '/api/notifications/stream', url: '/api/notifications/stream?maxSeconds=1', own: true },
  { method: 'POST', path: '/api/incidents/{id}/acknowledge', url: '/api/incidents/:incident/acknowledge' },
  { method: 'GET', path: '/api/incidents/{id}/notifications', url: '/api/incidents/:incident/notifications' },
  // The same provider list for every caller.
  { method: 'GET', path: '/api/notification-providers', url: '/api/notification-providers', own: true },
  { method: 'GET', path: '/api/notification-channels', url: `/api/notification-channels?organizationId=${ORG}` },
  { method: 'GET', path: '/api/notification-channels', url: '/api/notification-channels', own: true },
  {
    method: 'POST',
    path: '/api/notification-channels',
    url: `/api/notification-channels?organizationId=${ORG}`,
    body: { name: 'n', provider: 'email', config: { addresses: ['x@example.org'] } },
  },
  { method: 'GET', path: '/api/notification-channels/{id}', url: '/api/notification-channels/:channel' },
  {
    method: 'PUT',
    path: '/api/notification-channels/{id}',
    url: '/api/notification-channels/:channel',
    body: { name: 'hijacked' },
  },
  { method: 'DELETE', path: '/api/notification-channels/{id}', url: '/api/notification-channels/:channel' },
  { method: 'POST', path: '/api/notification-channels/{id}/test', url: '/api/notification-channels/:channel/test' },
  { method: 'GET', path: '/api/notification-routes', url: `/api/notification-routes?organizationId=${ORG}` },
  {
    method: 'POST',
    path: '/api/notification-routes',
    url: `/api/notification-routes?organizationId=${ORG}`,
    body: { name: 'r' },
  },
  // A route of the caller's own that names our channel is refused (400): the channel is not theirs.
  {
    method: 'POST',
    path: '/api/notification-routes',
    url: '/api/notification-routes',
    body: { name: 'r', channelIds: [':channel'] },
    refused: [400],
  },
  { method: 'PUT', path: '/api/notification-routes/{id}', url: '/api/notification-routes/:route', body: { name: 'x' } },
  { method: 'DELETE', path: '/api/notification-routes/{id}', url: '/api/notification-routes/:route' },
  { method: 'GET', path: '/api/escalation-policies', url: `/api/escalation-policies?organizationId=${ORG}` },
  {
    method: 'POST',
    path: '/api/escalation-policies',
    url: '/api/escalation-policies',
    body: { name: 'p', steps: [{ afterMinutes: 0, channelIds: [':channel'] }] },
    refused: [400],
  },
  {
    method: 'PUT',
    path: '/api/escalation-policies/{id}',
    url: '/api/escalation-policies/:policy',
    body: { name: 'x', steps: [{ afterMinutes: 0, channelIds: [':channel'] }] },
    refused: [400],
  },
  { method: 'DELETE', path: '/api/escalation-policies/{id}', url: '/api/escalation-policies/:policy' },
  // Public, and answered for a valid signature only.
  { method: 'GET', path: '/ack', url: '/ack?token=forged.token' },
  { method: 'POST', path: '/ack', url: '/ack?token=forged.token' },
  { method: 'POST', path: '/hooks/notification-channels/{id}', url: '/hooks/notification-channels/:channel', body: {} },
  // The same static list of platforms for every caller: nothing of an organization's in it.
  { method: 'GET', path: '/api/integrations', url: '/api/integrations', own: true },
  ...(
    [
      ['cloud-a', 'accounts', 'accountId', 'services', 'serviceId', ':cloudA'],
      ['selfhost-b', 'instances', 'instanceId', 'resources', 'resourceId', ':selfhostB'],
      ['webhost-c', 'accounts', 'accountId', 'projects', 'projectId', ':webhostC'],
    ] as const
  ).flatMap(([provider, collection, idParam, items, itemParam, placeholder]) => {
    const base = `/api/${provider}/${collection}`
    return [
      { method: 'GET' as const, path: base, url: `${base}?organizationId=${ORG}` },
      { method: 'GET' as const, path: base, url: base, own: true as const },
      { method: 'DELETE' as const, path: `${base}/{${idParam}}`, url: `${base}/${placeholder}` },
      { method: 'GET' as const, path: `${base}/{${idParam}}/${items}`, url: `${base}/${placeholder}/${items}` },
      {
        method: 'POST' as const,
        path: `${base}/{${idParam}}/${items}/{${itemParam}}/monitor`,
        url: `${base}/${placeholder}/${items}/any-item/monitor`,
      },
    ]
  }),
  {
    method: 'POST',
    path: '/api/cloud-a/accounts',
    url: `/api/cloud-a/accounts?organizationId=${ORG}`,
    body: { tenantId: 't', clientId: 'c', clientSecret: 's', subscriptionId: 'x' },
  },
  {
    method: 'POST',
    path: '/api/selfhost-b/instances',
    url: `/api/selfhost-b/instances?organizationId=${ORG}`,
    body: { name: 'n', url: 'https://x.example', apiKey: 'k' },
  },
  { method: 'POST', path: '/api/webhost-c/accounts', url: `/api/webhost-c/accounts?organizationId=${ORG}` },
  // Authenticated by its single-use state, not by a caller: another organization holds none of ours.
  { method: 'GET', path: '/api/webhost-c/callback', url: '/api/webhost-c/callback?state=guess&code=x', own: true },
  { method: 'GET', path: '/api/devices', url: `/api/devices?organizationId=${ORG}` },
  { method: 'POST', path: '/api/devices', url: `/api/devices?organizationId=${ORG}`, body: { name: 'd' } },
  { method: 'POST', path: '/api/devices', url: '/api/devices', body: { name: 'd' }, own: true },
  { method: 'GET', path: '/api/devices/stats', url: `/api/devices/stats?organizationId=${ORG}` },
  { method: 'GET', path: '/api/devices/stats', url: '/api/devices/stats', own: true },
  { method: 'GET', path: '/api/devices/{deviceId}', url: '/api/devices/:device' },
  { method: 'PUT', path: '/api/devices/{deviceId}', url: '/api/devices/:device', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/devices/{deviceId}', url: '/api/devices/:device' },
  { method: 'POST', path: '/api/devices/{deviceId}/regenerate-token', url: '/api/devices/:device/regenerate-token' },
  { method: 'GET', path: '/api/devices/{deviceId}/metrics', url: '/api/devices/:device/metrics?range=30d' },
  { method: 'GET', path: '/api/devices/{deviceId}/metrics', url: '/api/devices/:device/metrics' },
  { method: 'GET', path: '/api/devices/{deviceId}/processes', url: '/api/devices/:device/processes' },
  { method: 'GET', path: '/api/devices/{deviceId}/applications', url: '/api/devices/:device/applications' },
  { method: 'GET', path: '/api/devices/{deviceId}/network', url: '/api/devices/:device/network' },
  // The agent's file and its install script are public, the same for everyone: nothing of ours.
  { method: 'GET', path: '/agent/download', url: '/agent/download', own: true, sameForAll: true },
  { method: 'GET', path: '/agent/download.sha256', url: '/agent/download.sha256', own: true, sameForAll: true },
  { method: 'GET', path: '/agent/install.sh', url: '/agent/install.sh', own: true, sameForAll: true },
  // The caller's own organization and account, as identity sees them with the caller's own token:
  // another organization's are never named, so there is nothing of ours to reach.
  { method: 'GET', path: '/api/organization', url: '/api/organization', own: true, delegated: true },
  {
    method: 'PATCH',
    path: '/api/organization',
    url: '/api/organization',
    body: { name: 'hijacked' },
    own: true,
    delegated: true,
  },
  { method: 'GET', path: '/api/organization/members', url: '/api/organization/members', own: true, delegated: true },
  {
    method: 'PATCH',
    path: '/api/organization/members/{userId}',
    url: '/api/organization/members/:user',
    body: { role: 'viewer' },
    own: true,
    delegated: true,
  },
  {
    method: 'DELETE',
    path: '/api/organization/members/{userId}',
    url: '/api/organization/members/:user',
    own: true,
    delegated: true,
  },
  {
    method: 'GET',
    path: '/api/organization/invitations',
    url: '/api/organization/invitations',
    own: true,
    delegated: true,
  },
  {
    method: 'POST',
    path: '/api/organization/invitations',
    url: '/api/organization/invitations',
    body: { email: 'x@example.org', role: 'member' },
    own: true,
    delegated: true,
  },
  {
    method: 'DELETE',
    path: '/api/organization/invitations/{id}',
    url: '/api/organization/invitations/x',
    own: true,
    delegated: true,
  },
  { method: 'GET', path: '/api/account/sessions', url: '/api/account/sessions', own: true, delegated: true },
  { method: 'DELETE', path: '/api/account/sessions/{id}', url: '/api/account/sessions/x', own: true, delegated: true },
  {
    method: 'POST',
    path: '/api/account/password',
    url: '/api/account/password',
    body: { currentPassword: 'not-the-password', newPassword: 'a-new-password-long-enough' },
    own: true,
    delegated: true,
  },
  // Users and API keys are not device tokens: the agent route refuses them outright.
  { method: 'POST', path: '/agent', url: '/agent', body: { device_id: ':device' }, refused: [401] },
  // Every organization's dead letters: for the platform operator only (identity's admin credential).
  { method: 'GET', path: '/api/admin/dead-letters', url: '/api/admin/dead-letters', refused: [401] },
  {
    method: 'POST',
    path: '/api/admin/dead-letters/{id}/replay',
    url: '/api/admin/dead-letters/x/replay',
    refused: [401],
  },
  { method: 'DELETE', path: '/api/admin/dead-letters/{id}', url: '/api/admin/dead-letters/x', refused: [401] },
  { method: 'GET', path: '/api/status-pages', url: `/api/status-pages?organizationId=${ORG}` },
  { method: 'GET', path: '/api/status-pages', url: '/api/status-pages', own: true },
  {
    method: 'POST',
    path: '/api/status-pages',
    url: `/api/status-pages?organizationId=${ORG}`,
    body: { name: 'p', slug: 'stranger-page' },
  },
  {
    method: 'POST',
    path: '/api/status-pages',
    url: '/api/status-pages',
    body: { name: 'p', slug: 'own-page' },
    own: true,
  },
  { method: 'GET', path: '/api/status-pages/{id}', url: '/api/status-pages/:page' },
  { method: 'PUT', path: '/api/status-pages/{id}', url: '/api/status-pages/:page', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/status-pages/{id}', url: '/api/status-pages/:page' },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/domains',
    url: '/api/status-pages/:page/domains',
    body: { domainId: ':domain' },
  },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/services',
    url: '/api/status-pages/:page/services',
    body: { serviceId: ':service' },
  },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/devices',
    url: '/api/status-pages/:page/devices',
    body: { deviceId: ':device' },
  },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/heartbeats',
    url: '/api/status-pages/:page/heartbeats',
    body: { heartbeatId: ':heartbeat' },
  },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/synthetics',
    url: '/api/status-pages/:page/synthetics',
    body: { syntheticId: ':synthetic' },
  },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/groups',
    url: '/api/status-pages/:page/groups',
    body: { groupId: ':group' },
  },
  {
    method: 'DELETE',
    path: '/api/status-pages/{id}/components/{componentId}',
    url: '/api/status-pages/:page/components/:component',
  },
  {
    method: 'PUT',
    path: '/api/status-pages/{id}/components/order',
    url: '/api/status-pages/:page/components/order',
    body: { componentIds: [':component'] },
  },
  { method: 'GET', path: '/api/status-pages/{id}/access', url: '/api/status-pages/:page/access' },
  {
    method: 'PUT',
    path: '/api/status-pages/{id}/access',
    url: '/api/status-pages/:page/access',
    body: { mode: 'password', password: 'hijacked password' },
  },
  {
    method: 'PUT',
    path: '/api/status-pages/{id}/domain',
    url: '/api/status-pages/:page/domain',
    body: { customDomain: 'hijacked.example.test' },
  },
  { method: 'GET', path: '/api/status-pages/{id}/domain/check', url: '/api/status-pages/:page/domain/check' },
  // Not published, so no certificate for its domain, no password form, no sign-in.
  {
    method: 'GET',
    path: '/api/status-pages/custom-domains/ask',
    url: '/api/status-pages/custom-domains/ask?domain=secret.example.test',
  },
  {
    method: 'POST',
    path: '/status/{slug}/access',
    url: '/status/secret-status/access',
    body: { password: 'guess' },
  },
  { method: 'GET', path: '/status/{slug}/access', url: '/status/secret-status/access?grant=1.x' },
  { method: 'GET', path: '/status/{slug}/sign-in', url: '/status/secret-status/sign-in' },
  { method: 'GET', path: '/api/status-pages/{id}/subscribers', url: '/api/status-pages/:page/subscribers' },
  {
    method: 'GET',
    path: '/api/status-pages/{id}/subscribers',
    url: '/api/status-pages/:page/subscribers?format=csv',
  },
  {
    method: 'POST',
    path: '/api/status-pages/{id}/subscribers/import',
    url: '/api/status-pages/:page/subscribers/import',
    body: { emails: ['planted@example.org'] },
  },
  {
    method: 'DELETE',
    path: '/api/status-pages/{id}/subscribers/{subscriberId}',
    url: '/api/status-pages/:page/subscribers/:subscriber',
  },
  {
    method: 'GET',
    path: '/api/status-pages/{id}/subscriber-settings',
    url: '/api/status-pages/:page/subscriber-settings',
  },
  {
    method: 'PUT',
    path: '/api/status-pages/{id}/subscriber-settings',
    url: '/api/status-pages/:page/subscriber-settings',
    body: { maintenanceNoticeHours: 1 },
  },
  // Subscribing to, confirming or leaving our private page: the same 404 as for an unknown page.
  {
    method: 'POST',
    path: '/api/status-pages/{id}/subscribe',
    url: '/api/status-pages/secret-status/subscribe',
    body: { email: 'planted@example.org' },
  },
  {
    method: 'POST',
    path: '/status/{slug}/subscribe',
    url: '/status/secret-status/subscribe',
    body: { email: 'planted@example.org' },
  },
  { method: 'GET', path: '/status/{slug}/confirm', url: '/status/secret-status/confirm?token=:subscriber.x' },
  { method: 'POST', path: '/status/{slug}/confirm', url: '/status/secret-status/confirm?token=:subscriber.x' },
  // The button page is the same for every token; only its POST acts, and a forged token is refused.
  {
    method: 'GET',
    path: '/status/{slug}/unsubscribe',
    url: '/status/secret-status/unsubscribe?token=:subscriber.x',
    own: true,
  },
  { method: 'POST', path: '/status/{slug}/unsubscribe', url: '/status/secret-status/unsubscribe?token=:subscriber.x' },
  // Our page is private: its public answer is the same 404 for everybody.
  { method: 'GET', path: '/api/status-pages/{id}/public', url: '/api/status-pages/secret-status/public' },
  { method: 'GET', path: '/status/{slug}', url: '/status/secret-status' },
  { method: 'GET', path: '/status-assets/{file}', url: '/status-assets/status-page.js', own: true },
  { method: 'GET', path: '/status/{slug}/badge.svg', url: '/status/secret-status/badge.svg' },
  {
    method: 'GET',
    path: '/status/{slug}/components/{componentId}/badge.svg',
    url: '/status/secret-status/components/:component/badge.svg?type=uptime',
  },
  { method: 'GET', path: '/status/{slug}/feed.atom', url: '/status/secret-status/feed.atom' },
  { method: 'GET', path: '/status/{slug}/history', url: '/status/secret-status/history' },
  {
    method: 'GET',
    path: '/status/{slug}/incidents/{key}',
    url: '/status/secret-status/incidents/AAAAAAAAAAAAAAAAAAAAAA',
  },
  {
    method: 'GET',
    path: '/api/status-pages/{id}/public/history',
    url: '/api/status-pages/secret-status/public/history',
  },
  {
    method: 'GET',
    path: '/api/status-pages/{id}/public/incidents/{key}',
    url: '/api/status-pages/secret-status/public/incidents/AAAAAAAAAAAAAAAAAAAAAA',
  },
  { method: 'GET', path: '/status/{slug}/summary.json', url: '/status/secret-status/summary.json' },
  // A preflight answers the same for every slug and carries no data.
  { method: 'OPTIONS', path: '/status/{slug}/summary.json', url: '/status/secret-status/summary.json', own: true },
  { method: 'GET', path: '/api/events/stream', url: `/api/events/stream?organizationId=${ORG}` },
  { method: 'GET', path: '/auth/login', url: '/auth/login?returnTo=%2Fdomains', own: true },
  { method: 'GET', path: '/auth/callback', url: '/auth/callback?code=x&state=y', own: true },
  { method: 'GET', path: '/auth/session', url: '/auth/session', own: true },
  { method: 'POST', path: '/auth/logout', url: '/auth/logout', body: { csrf: 'x' }, own: true },
  { method: 'GET', path: '/api/dashboard/stats', url: `/api/dashboard/stats?organizationId=${ORG}` },
  { method: 'GET', path: '/api/dashboard/stats', url: '/api/dashboard/stats', own: true },
  { method: 'GET', path: '/api/reports/domains', url: `/api/reports/domains?organizationId=${ORG}&range=30d` },
  { method: 'GET', path: '/api/reports/domains', url: '/api/reports/domains?format=csv', own: true },
  { method: 'GET', path: '/api/reports/devices', url: `/api/reports/devices?organizationId=${ORG}&range=7d` },
  { method: 'GET', path: '/api/reports/devices', url: '/api/reports/devices?format=csv', own: true },
  { method: 'GET', path: '/api/reports/heartbeats', url: `/api/reports/heartbeats?organizationId=${ORG}&range=7d` },
  { method: 'GET', path: '/api/reports/heartbeats', url: '/api/reports/heartbeats?format=csv', own: true },
  {
    method: 'GET',
    path: '/api/dashboard/recent-activity',
    url: `/api/dashboard/recent-activity?organizationId=${ORG}`,
  },
  { method: 'GET', path: '/api/dashboard/recent-activity', url: '/api/dashboard/recent-activity', own: true },
  { method: 'GET', path: '/api/chat/conversations', url: `/api/chat/conversations?organizationId=${ORG}` },
  { method: 'GET', path: '/api/chat/conversations', url: '/api/chat/conversations', own: true },
  {
    method: 'POST',
    path: '/api/chat/conversations',
    url: '/api/chat/conversations',
    body: { conversationId: ':conversation', userMessage: 'q', assistantMessage: 'a' },
  },
  {
    method: 'POST',
    path: '/api/chat/conversations',
    url: '/api/chat/conversations',
    body: { organizationId: ORG, userMessage: 'q', assistantMessage: 'a' },
  },
  { method: 'GET', path: '/api/chat/conversations/{id}', url: '/api/chat/conversations/:conversation' },
  { method: 'GET', path: '/api/reports/incidents', url: `/api/reports/incidents?organizationId=${ORG}&range=30d` },
  { method: 'GET', path: '/api/reports/incidents', url: '/api/reports/incidents?format=csv', own: true },
  { method: 'GET', path: '/api/reports/slos', url: `/api/reports/slos?organizationId=${ORG}` },
  { method: 'GET', path: '/api/reports/slos', url: '/api/reports/slos?format=html', own: true },
  { method: 'GET', path: '/api/slos', url: `/api/slos?organizationId=${ORG}` },
  { method: 'GET', path: '/api/slos', url: '/api/slos', own: true },
  {
    method: 'POST',
    path: '/api/slos',
    url: `/api/slos?organizationId=${ORG}`,
    body: { name: 's', subject: { kind: 'monitor', id: ':domain' }, objective: 99 },
  },
  {
    method: 'POST',
    path: '/api/slos',
    url: '/api/slos',
    body: { name: 's', subject: { kind: 'monitor', id: ':domain' }, objective: 99 },
    own: true,
  },
  { method: 'GET', path: '/api/slos/{id}', url: '/api/slos/:slo' },
  { method: 'PUT', path: '/api/slos/{id}', url: '/api/slos/:slo', body: { name: 'hijacked' } },
  { method: 'DELETE', path: '/api/slos/{id}', url: '/api/slos/:slo' },
  { method: 'GET', path: '/metrics', url: '/metrics', own: true },
  // The caller's own organization's series only: none of ours.
  { method: 'GET', path: '/metrics/monitors', url: '/metrics/monitors', own: true },
  { method: 'GET', path: '/api/health', url: '/api/health', own: true },
  // The toolbox holds no tenant data and runs in the caller's own name; with no probe here, bodies it refuses.
  { method: 'POST', path: '/api/toolbox/dns-lookup', url: '/api/toolbox/dns-lookup', body: { domain: '' }, own: true },
  {
    method: 'POST',
    path: '/api/toolbox/port-scanner',
    url: '/api/toolbox/port-scanner',
    body: { target: '127.0.0.1', ports: '9-1' },
    own: true,
  },
  { method: 'POST', path: '/api/toolbox/ip-scanner', url: '/api/toolbox/ip-scanner', body: { ip: '' }, own: true },
  // The MCP endpoint: naming our organization is a tool error, never our data (also test/collector-mcp.e2e.test.ts).
  ...['/mcp', '/api/mcp'].flatMap((path) =>
    [
      'get_dashboard_stats',
      'list_incidents',
      'get_domains_status',
      'get_devices_status',
      'get_heartbeats_status',
      'list_groups',
      'list_slos',
    ].map((name) => ({
      method: 'POST' as const,
      path,
      url: path,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { organizationId: ORG } } },
      own: true as const,
    })),
  ),
  // Our monitor's dependencies through MCP are a tool error, as through the API (404).
  {
    method: 'POST',
    path: '/mcp',
    url: '/mcp',
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_dependencies', arguments: { monitorId: ':service' } },
    },
    own: true,
  },
  // Our synthetic check's runs, and running it, through MCP are tool errors, as through the API (404).
  ...['run_synthetic_check', 'get_synthetic_runs'].map((name) => ({
    method: 'POST' as const,
    path: '/mcp',
    url: '/mcp',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { id: ':synthetic' } } },
    own: true as const,
  })),
  // Creating a service in our organization through MCP is refused like through the API.
  {
    method: 'POST',
    path: '/mcp',
    url: '/mcp',
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'create_service',
        arguments: { organizationId: ORG, name: 'x', protocol: 'udp', protocolConfig: { host: 'x.example', port: 9 } },
      },
    },
    own: true,
  },
  ...['', '/mcp', '/api/mcp'].map((suffix) => ({
    method: 'GET' as const,
    path: `/.well-known/oauth-protected-resource${suffix}`,
    url: `/.well-known/oauth-protected-resource${suffix}`,
    own: true as const,
  })),
]

describe('tenancy: another organization never sees or changes our data', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let ours: {
    slo: string
    channel: string
    route: string
    policy: string
    domain: string
    service: string
    heartbeat: string
    synthetic: string
    key: string
    incident: string
    window: string
    group: string
    notification: string
    device: string
    page: string
    component: string
    subscriber: string
    conversation: string
    accounts: Awaited<ReturnType<typeof seedIntegrationAccounts>>
    secrets: string[]
  }
  let strangerKey: string

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_ALLOW_PRIVATE_TARGETS: '1' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        stranger: userCaller('stranger', ['org-stranger']),
        ours: userCaller('ours-user', [ORG]),
      }),
    })
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const domain = (
      await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers,
        payload: { url: 'https://secret-domain.example', name: 'Secret domain', tags: ['secret-tag:x'] },
      })
    ).json().data.id
    const service = (
      await app.inject({
        method: 'POST',
        url: '/api/services',
        headers,
        payload: { name: 'Secret service', protocol: 'tcp', protocolConfig: { host: 'secret-host.example', port: 22 } },
      })
    ).json().data.id
    const synthetic = (
      await app.inject({
        method: 'POST',
        url: '/api/synthetics',
        headers,
        payload: {
          name: 'Secret synthetic',
          steps: [{ name: 'home', method: 'GET', url: 'https://secret-flow.example/' }],
        },
      })
    ).json().data.id
    const heartbeatMonitor = (
      await app.inject({
        method: 'POST',
        url: '/api/heartbeats',
        headers,
        payload: { name: 'Secret heartbeat', every: 3600 },
      })
    ).json().data as { id: string; pingUrl: string }
    await app.inject({ method: 'POST', url: new URL(heartbeatMonitor.pingUrl).pathname, payload: 'secret-ping-body' })
    const results = [resultFor(domain, ORG, 'fra', 60, 'up', 42), resultFor(service, ORG, 'fra', 60, 'up', 7)]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    const key = await createApiKey(harness.ctx.sql, { organizationId: ORG, name: 'secret-key', permissions: ['*:*'] })
    const incident = (
      await app.inject({
        method: 'POST',
        url: '/api/incidents',
        headers,
        payload: { title: 'Secret incident', affectedDomains: [domain] },
      })
    ).json().data.id
    await app.inject({
      method: 'POST',
      url: `/api/incidents/${incident}/comments`,
      headers,
      payload: { content: 'secret-comment', isInternal: true },
    })
    const window = (
      await app.inject({
        method: 'POST',
        url: '/api/maintenance-windows',
        headers,
        payload: { title: 'Secret window', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' },
      })
    ).json().data.id
    const group = (
      await app.inject({ method: 'POST', url: '/api/groups', headers, payload: { name: 'Secret group' } })
    ).json().data.id
    await app.inject({
      method: 'PUT',
      url: `/api/groups/${group}/members`,
      headers,
      payload: { add: [{ kind: 'domain', id: domain }] },
    })
    await app.inject({
      method: 'PUT',
      url: '/api/notifications/settings',
      headers,
      payload: { webhookUrl: 'http://127.0.0.1:9/secret-hook' },
    })
    const notification = 'secret-notification'
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.notifications (id, organization_id, principal, event_id, type, message)
       SELECT $1, $2, principal, 'e', 'info', 'secret-message' FROM monitoring.notification_settings LIMIT 1`,
      [notification, ORG],
    )
    const accounts = await seedIntegrationAccounts(harness.ctx, ORG, 'ours')
    const device = (
      await app.inject({ method: 'POST', url: '/api/devices', headers, payload: { name: 'Secret device' } })
    ).json().data.id
    const heartbeat = {
      v: 1 as const,
      deviceId: device,
      organizationId: ORG,
      timestamp: new Date(Date.now() - 5000).toISOString(),
      receivedAt: new Date().toISOString(),
      heartbeat: sampleHeartbeat(
        device,
        {},
        {
          system: {
            hostname: 'secret-device-host',
            platform: 'linux',
            architecture: 'x64',
            cpu_model: 'c',
            cpu_cores: 1,
            total_memory: 1,
            total_disk: 1,
            agent_version: '0',
            uptime_seconds: 1,
          },
          processes: [
            { pid: 1, name: 'secret-process', command: 'c', cpu_percent: 1, memory_mb: 1, status: 's', user: 'u' },
          ],
          applications: [
            { name: 'secret-app', version: '1', publisher: 'p', install_path: '', size: 1, is_running: true },
          ],
          connections: [
            {
              local_address: '10.9.8.7',
              local_port: 1,
              remote_address: null,
              remote_port: null,
              protocol: 'tcp',
              status: 'LISTEN',
              process_name: 'secret-listener',
            },
          ],
        },
      ),
    }
    await storeHeartbeats(harness.ctx.timeseries, [heartbeat])
    await applyHeartbeats(harness.ctx.sql, harness.ctx.env, [heartbeat])
    const page = (
      await app.inject({
        method: 'POST',
        url: '/api/status-pages',
        headers,
        payload: { name: 'Secret status page', slug: 'secret-status' },
      })
    ).json().data.id
    await app.inject({
      method: 'PUT',
      url: `/api/status-pages/${page}/domain`,
      headers,
      payload: { customDomain: 'secret.example.test' },
    })
    const component = (
      await app.inject({
        method: 'POST',
        url: `/api/status-pages/${page}/domains`,
        headers,
        payload: { domainId: domain },
      })
    ).json().data.components[0].id
    await app.inject({
      method: 'POST',
      url: `/api/status-pages/${page}/subscribers/import`,
      headers,
      payload: { emails: ['secret-subscriber@example.org'] },
    })
    const subscriber = (
      await app.inject({ method: 'GET', url: `/api/status-pages/${page}/subscribers`, headers })
    ).json().data[0].id
    const conversation = (
      await app.inject({
        method: 'POST',
        url: '/api/chat/conversations',
        headers: { authorization: 'Bearer user:ours' },
        payload: { userMessage: 'Secret chat question', assistantMessage: 'secret-chat-answer' },
      })
    ).json().data.id
    const channel = (
      await app.inject({
        method: 'POST',
        url: '/api/notification-channels',
        headers,
        payload: { name: 'Secret channel', provider: 'email', config: { addresses: ['secret-oncall@example.org'] } },
      })
    ).json().data.id
    const policy = (
      await app.inject({
        method: 'POST',
        url: '/api/escalation-policies',
        headers,
        payload: { name: 'Secret policy', steps: [{ afterMinutes: 0, channelIds: [channel] }] },
      })
    ).json().data.id
    const route = (
      await app.inject({
        method: 'POST',
        url: '/api/notification-routes',
        headers,
        payload: { name: 'Secret route', channelIds: [channel], escalationPolicyId: policy },
      })
    ).json().data.id
    const slo = (
      await app.inject({
        method: 'POST',
        url: '/api/slos',
        headers,
        payload: { name: 'Secret SLO', subject: { kind: 'monitor', id: domain }, objective: 99.9 },
      })
    ).json().data.id
    ours = {
      slo,
      channel,
      route,
      policy,
      domain,
      service,
      heartbeat: heartbeatMonitor.id,
      synthetic,
      key: key.id,
      incident,
      window,
      group,
      notification,
      accounts,
      device,
      page,
      component,
      subscriber,
      conversation,
      secrets: [
        subscriber,
        'secret-subscriber',
        slo,
        'Secret SLO',
        channel,
        route,
        policy,
        'Secret channel',
        'secret-oncall',
        'Secret policy',
        'Secret route',
        conversation,
        'Secret chat',
        'secret-chat-answer',
        page,
        component,
        'Secret status page',
        'secret.example.test',
        'Secret incident',
        'secret-comment',
        'Secret window',
        group,
        'Secret group',
        'secret-hook',
        'secret-message',
        ...Object.values(accounts),
        'ours-',
        'ours ',
        device,
        'Secret device',
        'secret-device-host',
        'secret-process',
        'secret-app',
        'secret-listener',
        domain,
        service,
        heartbeatMonitor.id,
        heartbeatMonitor.pingUrl.split('/').at(-1)!,
        'Secret heartbeat',
        'secret-ping-body',
        key.id,
        'Secret domain',
        'secret-domain',
        'Secret service',
        'secret-host',
        'secret-key',
        'secret-tag',
      ],
    }
    strangerKey = (
      await createApiKey(harness.ctx.sql, { organizationId: 'org-stranger', name: 'x', permissions: ['*:*'] })
    ).key
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('covers every route the OpenAPI document lists', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    const tested = new Set(table.map((row) => `${row.method} ${row.path}`))
    expect(documented.filter((route) => !tested.has(route))).toEqual([])
  })

  for (const principal of ['api key', 'user'] as const) {
    it.each(table)(`as another organization's ${principal}: $method $url`, async (row) => {
      const fill = (text: string) =>
        text
          .replace(':domain', ours.domain)
          .replace(':service', ours.service)
          .replace(':heartbeat', ours.heartbeat)
          .replace(':synthetic', ours.synthetic)
          .replace(':key', ours.key)
          .replace(':incident', ours.incident)
          .replace(':window', ours.window)
          .replace(':group', ours.group)
          .replace(':notification', ours.notification)
          .replace(':device', ours.device)
          .replace(':page', ours.page)
          .replace(':component', ours.component)
          .replace(':subscriber', ours.subscriber)
          .replace(':conversation', ours.conversation)
          .replace(':channel', ours.channel)
          .replace(':route', ours.route)
          .replace(':policy', ours.policy)
          .replace(':slo', ours.slo)
          .replace(':cloudA', ours.accounts.cloudA)
          .replace(':selfhostB', ours.accounts.selfhostB)
          .replace(':webhostC', ours.accounts.webhostC)
      const response = await app.inject({
        method: row.method,
        url: fill(row.url),
        headers: { authorization: `Bearer ${principal === 'user' ? 'user:stranger' : strangerKey}` },
        ...(row.body ? { payload: JSON.parse(fill(JSON.stringify(row.body))) } : {}),
      })
      if (row.sameForAll) {
        const anonymous = await app.inject({ method: row.method, url: row.url })
        expect(response.body).toBe(anonymous.body)
      } else {
        for (const secret of ours.secrets) expect(response.body).not.toContain(secret)
      }
      if (!row.own) expect([403, 404, ...(row.refused ?? [])]).toContain(response.statusCode)
      if (row.delegated) expect([403, 503]).toContain(response.statusCode)
      else expect(response.statusCode).toBeLessThan(500)
    })
  }

  it('left our domain, service and key as they were', async () => {
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const domain = await app.inject({ method: 'GET', url: `/api/domains/${ours.domain}`, headers })
    expect(domain.json().data).toMatchObject({ name: 'Secret domain', status: 'up', enabled: true })
    const service = await app.inject({ method: 'GET', url: `/api/services/${ours.service}`, headers })
    expect(service.json().data).toMatchObject({ name: 'Secret service' })
    const heartbeat = await app.inject({ method: 'GET', url: `/api/heartbeats/${ours.heartbeat}`, headers })
    expect(heartbeat.json().data).toMatchObject({ name: 'Secret heartbeat' })
    const { rows } = await harness.ctx.sql.query('SELECT 1 FROM monitoring.api_keys WHERE id = $1', [ours.key])
    expect(rows).toHaveLength(1)
    const incident = await app.inject({ method: 'GET', url: `/api/incidents/${ours.incident}`, headers })
    expect(incident.json().data).toMatchObject({ status: 'open', title: 'Secret incident' })
    expect(incident.json().data.updates).toHaveLength(1)
    const comments = await app.inject({ method: 'GET', url: `/api/incidents/${ours.incident}/comments`, headers })
    expect(comments.json().data).toHaveLength(1)
    const window = await app.inject({ method: 'GET', url: `/api/maintenance-windows/${ours.window}`, headers })
    expect(window.json().data).toMatchObject({ title: 'Secret window' })
    const group = await app.inject({ method: 'GET', url: `/api/groups/${ours.group}`, headers })
    expect(group.json().data).toMatchObject({ name: 'Secret group', members: [{ id: ours.domain }] })
    const unread = await harness.ctx.sql.query('SELECT is_read FROM monitoring.notifications WHERE id = $1', [
      ours.notification,
    ])
    expect(unread.rows).toEqual([{ is_read: false }])
    const accounts = await harness.ctx.sql.query(
      'SELECT id FROM monitoring.integration_accounts WHERE organization_id = $1',
      [ORG],
    )
    expect(accounts.rows.map((row) => row.id).sort()).toEqual(Object.values(ours.accounts).sort())
    const device = await app.inject({ method: 'GET', url: `/api/devices/${ours.device}`, headers })
    expect(device.json().data).toMatchObject({ name: 'Secret device', hostname: 'secret-device-host', isOnline: true })
    const page = await app.inject({ method: 'GET', url: `/api/status-pages/${ours.page}`, headers })
    expect(page.json().data).toMatchObject({ name: 'Secret status page', components: [{ id: ours.component }] })
    const subscribers = await app.inject({ method: 'GET', url: `/api/status-pages/${ours.page}/subscribers`, headers })
    expect(subscribers.json().data).toEqual([expect.objectContaining({ id: ours.subscriber, confirmed: true })])
    const settings = await app.inject({
      method: 'GET',
      url: `/api/status-pages/${ours.page}/subscriber-settings`,
      headers,
    })
    expect(settings.json().data).toEqual({ maintenanceNoticeHours: 24 })
  })
})
