import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import {
  AlertingHeader,
  type Channel,
  CheckGroup,
  channelNames,
  minutes,
  type Policy,
  type RouteView,
  type Selector,
  useChannels,
  usePolicies,
} from './alerting-shared.tsx'
import './screens.css'
import { ManagedBadge, ManagedWarning, useManagedByCode } from '../components/managed-by-code.tsx'

const KINDS = [
  ['domain', 'Domains'],
  ['service', 'Services'],
  ['heartbeat', 'Heartbeats'],
  ['device', 'Devices'],
] as const
const SEVERITIES = [
  ['low', 'Low'],
  ['medium', 'Medium'],
  ['high', 'High'],
  ['critical', 'Critical'],
] as const
const CAUSES = [
  ['down', 'Down'],
  ['certificate', 'Certificate'],
  ['registration', 'Registration'],
  ['device-offline', 'Device offline'],
  ['device-health', 'Device health'],
  ['manual', 'Manual'],
] as const
const EVENTS = [
  ['opened', 'Opened'],
  ['reopened', 'Reopened'],
  ['updated', 'Updated'],
  ['acknowledged', 'Acknowledged'],
  ['resolved', 'Resolved'],
  ['reminder', 'Reminder'],
  ['escalated', 'Escalated'],
] as const

interface Monitor {
  id: string
  name: string
  kind: string
}

/** Every monitor of the organization a route may name, as `<kind>: <name>`. */
function useMonitors(organizationId: string) {
  return useResource(async () => {
    const named = <T extends { id: string; name: string }>(kind: string, rows: T[]) =>
      rows.map((row) => ({ id: row.id, name: row.name, kind }))
    const [domains, services, heartbeats, devices] = await Promise.all([
      api.get<{ data: Monitor[] }>('/api/domains', { organization: organizationId, limit: 200 }),
      api.get<Envelope<Monitor[]>>('/api/services', { organizationId }),
      api.get<Envelope<Monitor[]>>('/api/heartbeats', { organizationId }),
      api.get<Envelope<Monitor[]>>('/api/devices', { organizationId }),
    ])
    return [
      ...named('domain', domains.data),
      ...named('service', services.data),
      ...named('heartbeat', heartbeats.data),
      ...named('device', devices.data),
    ]
  }, [organizationId])
}

/** The selector in words: every field named must match, any value within a field. */
function describeSelector(selector: Selector, monitors: Monitor[] | undefined): string {
  const parts: string[] = []
  if (selector.monitorIds?.length)
    parts.push(`monitors ${selector.monitorIds.map((id) => monitors?.find((m) => m.id === id)?.name ?? id).join(', ')}`)
  if (selector.tags?.length) parts.push(`tags ${selector.tags.join(' and ')}`)
  if (selector.monitorKinds?.length) parts.push(`kinds ${selector.monitorKinds.join(', ')}`)
  if (selector.severities?.length) parts.push(`severity ${selector.severities.join(', ')}`)
  if (selector.causes?.length) parts.push(`cause ${selector.causes.join(', ')}`)
  if (selector.events?.length) parts.push(`events ${selector.events.join(', ')}`)
  return parts.length ? parts.join('; ') : 'every incident'
}

/** Tried in ascending position; the default route, which takes the rest, comes last. */
const ordered = (routes: RouteView[]) =>
  [...routes].sort((a, b) => Number(a.isDefault) - Number(b.isDefault) || a.position - b.position)

export default function AlertingRoutes() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const routes = useResource(
    () =>
      api
        .get<Envelope<RouteView[]>>('/api/notification-routes', { organizationId: current.id })
        .then((b) => ordered(b.data)),
    [current.id],
  )
  const channels = useChannels(current.id)
  const policies = usePolicies(current.id)
  const monitors = useMonitors(current.id)
  const [editing, setEditing] = useState<RouteView | 'new' | undefined>(undefined)
  const [deleting, setDeleting] = useState<RouteView | undefined>(undefined)
  const action = useAction()

  const remove = async () => {
    const route = deleting
    setDeleting(undefined)
    if (!route) return
    const answer = await action.run(() => api.del(`/api/notification-routes/${encodeURIComponent(route.id)}`))
    if (answer !== undefined) routes.reload()
  }
  const nextPosition = Math.max(0, ...(routes.data ?? []).filter((r) => !r.isDefault).map((r) => r.position)) + 10

  return (
    <section class="screen">
      <AlertingHeader
        actions={
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            Add a route
          </button>
        }
      />
      <p class="muted">
        An incident goes to the first route (in this order) whose selector matches it, and on to the next ones while a
        route says “continue”. The default route takes whatever no other route took.
      </p>
      {action.error ? <ErrorText error={action.error} /> : null}
      {routes.error ? <ErrorText error={routes.error} retry={routes.reload} /> : null}
      {!routes.data ? (
        routes.error ? null : (
          <Loading label="Loading routes…" />
        )
      ) : routes.data.length === 0 ? (
        <Empty title="No routes yet">
          <p>The default route is created with the first channel.</p>
        </Empty>
      ) : (
        <ol class="components" aria-label="Routes, in the order they are tried">
          {routes.data.map((route) => (
            <li key={route.id}>
              <div class="component-name">
                {route.name} {route.isDefault ? <Badge tone="neutral">default</Badge> : null}
                {managed.has(route.id) && <ManagedBadge />}{' '}
                {route.enabled ? null : <Badge tone="degraded">disabled</Badge>}
                <div class="muted alerting-detail">
                  {route.isDefault
                    ? 'Takes what no other route took'
                    : `#${route.position}: ${describeSelector(route.selector, monitors.data)}`}
                </div>
                <div class="muted alerting-detail">
                  → {route.channelIds.length ? channelNames(route.channelIds, channels.data) : 'no channel'}
                  {route.escalationPolicyId
                    ? ` · escalates by ${policies.data?.find((p) => p.id === route.escalationPolicyId)?.name ?? 'a policy'}`
                    : ''}
                  {route.reminderMinutes ? ` · reminds every ${minutes(route.reminderMinutes)}` : ''}
                  {route.continueMatching ? ' · continues' : ''}
                </div>
              </div>
              <div class="component-actions">
                <button type="button" class="link" aria-label={`Edit ${route.name}`} onClick={() => setEditing(route)}>
                  Edit
                </button>
                {route.isDefault ? null : (
                  <button
                    type="button"
                    class="link"
                    aria-label={`Delete ${route.name}`}
                    onClick={() => setDeleting(route)}
                    disabled={action.busy}
                  >
                    Delete
                  </button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      {editing ? (
        <RouteDialog
          route={editing === 'new' ? undefined : editing}
          managed={editing !== 'new' && managed.has(editing.id)}
          position={nextPosition}
          channels={channels.data ?? []}
          policies={policies.data ?? []}
          monitors={monitors.data ?? []}
          onClose={(changed) => {
            setEditing(undefined)
            if (changed) routes.reload()
          }}
        />
      ) : null}
      <Confirm
        open={deleting !== undefined}
        title={`Delete ${deleting?.name ?? 'this route'}?`}
        message="Incidents it took go to the next matching route, or the default route."
        confirmLabel="Delete route"
        onConfirm={remove}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  )
}

function RouteDialog({
  route,
  managed,
  position,
  channels,
  policies,
  monitors,
  onClose,
}: {
  route: RouteView | undefined
  managed: boolean
  position: number
  channels: Channel[]
  policies: Policy[]
  monitors: Monitor[]
  onClose: (changed: boolean) => void
}) {
  const [draft, setDraft] = useState({
    name: route?.name ?? '',
    position: String(route?.position ?? position),
    channelIds: route?.channelIds ?? [],
    escalationPolicyId: route?.escalationPolicyId ?? '',
    reminderMinutes: route?.reminderMinutes ? String(route.reminderMinutes) : '',
    continueMatching: route?.continueMatching ?? false,
    enabled: route?.enabled ?? true,
  })
  const [selector, setSelector] = useState<Selector>(route?.selector ?? {})
  const [tags, setTags] = useState((route?.selector.tags ?? []).join(', '))
  const set = <K extends keyof typeof draft>(key: K, value: (typeof draft)[K]) => setDraft({ ...draft, [key]: value })
  const pick = (key: keyof Selector) => (values: string[]) => setSelector({ ...selector, [key]: values })

  const submit = async () => {
    const list = (values: string[] | undefined) => (values?.length ? values : undefined)
    const body = {
      name: draft.name,
      position: Number(draft.position),
      selector: {
        monitorIds: list(selector.monitorIds),
        tags: list(
          tags
            .split(',')
            .map((tag) => tag.trim())
            .filter(Boolean),
        ),
        monitorKinds: list(selector.monitorKinds),
        severities: list(selector.severities),
        causes: list(selector.causes),
        events: list(selector.events),
      },
      channelIds: draft.channelIds,
      escalationPolicyId: draft.escalationPolicyId || null,
      reminderMinutes: draft.reminderMinutes ? Number(draft.reminderMinutes) : null,
      continueMatching: draft.continueMatching,
      enabled: draft.enabled,
    }
    if (route) await api.put(`/api/notification-routes/${encodeURIComponent(route.id)}`, body)
    else await api.post('/api/notification-routes', body)
    onClose(true)
  }

  return (
    <Dialog open title={route ? `Edit ${route.name}` : 'Add a route'} onClose={() => onClose(false)}>
      {managed && <ManagedWarning />}
      <Form onSubmit={submit} submitLabel={route ? 'Save route' : 'Create route'} onCancel={() => onClose(false)}>
        <Field label="Route name">
          {(id) => (
            <input
              id={id}
              required
              maxLength={100}
              value={draft.name}
              onInput={(e) => set('name', e.currentTarget.value)}
            />
          )}
        </Field>
        {route?.isDefault ? null : (
          <>
            <Field label="Position" hint="Routes are tried in ascending position">
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  type="number"
                  min={0}
                  step={1}
                  required
                  value={draft.position}
                  onInput={(e) => set('position', e.currentTarget.value)}
                />
              )}
            </Field>
            <fieldset>
              <legend>Takes incidents that match</legend>
              <small class="hint">Every part filled in must match; nothing filled in takes every incident.</small>
              <Field label="Monitors" hint="Ctrl- or Cmd-click to pick several">
                {(id, describedBy) => (
                  <select
                    id={id}
                    aria-describedby={describedBy}
                    multiple
                    size={Math.min(6, Math.max(2, monitors.length))}
                    onChange={(e) =>
                      pick('monitorIds')([...e.currentTarget.selectedOptions].map((option) => option.value))
                    }
                  >
                    {monitors.map((monitor) => (
                      <option key={monitor.id} value={monitor.id} selected={selector.monitorIds?.includes(monitor.id)}>
                        {monitor.kind}: {monitor.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Tags" hint="Comma-separated, key or key:value; every tag named must be on the monitor">
                {(id, describedBy) => (
                  <input
                    id={id}
                    aria-describedby={describedBy}
                    value={tags}
                    onInput={(e) => setTags(e.currentTarget.value)}
                  />
                )}
              </Field>
              <CheckGroup
                legend="Kinds"
                options={KINDS}
                value={selector.monitorKinds ?? []}
                onChange={pick('monitorKinds')}
              />
              <CheckGroup
                legend="Severities"
                options={SEVERITIES}
                value={selector.severities ?? []}
                onChange={pick('severities')}
              />
              <CheckGroup legend="Causes" options={CAUSES} value={selector.causes ?? []} onChange={pick('causes')} />
              <CheckGroup
                legend="Events"
                hint="Which moments of the incident; none checked: all of them"
                options={EVENTS}
                value={selector.events ?? []}
                onChange={pick('events')}
              />
            </fieldset>
          </>
        )}
        <CheckGroup
          legend="Channels"
          hint={channels.length ? 'Notified at once' : 'Add a channel first'}
          options={channels.map((channel) => [channel.id, channel.name] as const)}
          value={draft.channelIds}
          onChange={(ids) => set('channelIds', ids)}
        />
        <Field label="Escalation policy" hint="Calls more channels while nobody acknowledges">
          {(id, describedBy) => (
            <select
              id={id}
              aria-describedby={describedBy}
              value={draft.escalationPolicyId}
              onChange={(e) => set('escalationPolicyId', e.currentTarget.value)}
            >
              <option value="">None</option>
              {policies.map((policy) => (
                <option key={policy.id} value={policy.id}>
                  {policy.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Reminder every (minutes)" hint="Reminds the channels while the incident stays open; empty: never">
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              type="number"
              min={0.05}
              step="any"
              value={draft.reminderMinutes}
              onInput={(e) => set('reminderMinutes', e.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.continueMatching}
            onChange={(e) => set('continueMatching', e.currentTarget.checked)}
          />
          Continue: also try the routes after this one
        </label>
        <label class="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
          Enabled
        </label>
      </Form>
    </Dialog>
  )
}
