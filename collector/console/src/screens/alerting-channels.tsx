import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Secret } from '../components/secret.tsx'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import { type ConfigDraft, ConfigFields, configOf, draftOf, fieldLabel } from './alerting-config-fields.tsx'
import {
  AlertingHeader,
  type Channel,
  CheckGroup,
  type Provider,
  type QuietHours,
  useChannels,
} from './alerting-shared.tsx'
import './screens.css'
import { ManagedBadge, ManagedWarning, useManagedByCode } from '../components/managed-by-code.tsx'

interface TestResult {
  channelId: string
  ok: boolean
  statusCode: number | null
  error?: string
  permanent?: boolean
}

const DAYS = [
  ['0', 'Sun'],
  ['1', 'Mon'],
  ['2', 'Tue'],
  ['3', 'Wed'],
  ['4', 'Thu'],
  ['5', 'Fri'],
  ['6', 'Sat'],
] as const

const deliveryTone = (status: string | null) =>
  status === 'delivered' ? 'up' : status === 'failed' ? 'down' : status ? 'degraded' : 'neutral'

function verdict(channel: Channel, result: TestResult): string {
  if (result.ok)
    return `Test sent to ${channel.name}: the service accepted it${result.statusCode ? ` (HTTP ${result.statusCode})` : ''}.`
  const status = result.statusCode ? ` (HTTP ${result.statusCode})` : ''
  const advice = result.permanent ? ' The settings look wrong: fix them and test again.' : ' It may work on a retry.'
  return `Test to ${channel.name} failed${status}: ${result.error ?? 'no reason given'}.${advice}`
}

export default function AlertingChannels() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const channels = useChannels(current.id)
  const providers = useResource(
    () => api.get<Envelope<Provider[]>>('/api/notification-providers').then((b) => b.data),
    [current.id],
  )
  const [editing, setEditing] = useState<Channel | 'new' | undefined>(undefined)
  const [deleting, setDeleting] = useState<Channel | undefined>(undefined)
  const [tested, setTested] = useState<{ text: string; ok: boolean } | undefined>(undefined)
  const action = useAction()
  const providerOf = (id: string) => providers.data?.find((provider) => provider.id === id)

  const test = async (channel: Channel) => {
    setTested(undefined)
    const answer = await action.run(() =>
      api.post<Envelope<TestResult>>(`/api/notification-channels/${encodeURIComponent(channel.id)}/test`),
    )
    if (!answer) return
    setTested({ text: verdict(channel, answer.data), ok: answer.data.ok })
    channels.reload()
  }
  const remove = async () => {
    const channel = deleting
    setDeleting(undefined)
    if (!channel) return
    const answer = await action.run(() => api.del(`/api/notification-channels/${encodeURIComponent(channel.id)}`))
    if (answer !== undefined) channels.reload()
  }

  return (
    <section class="screen">
      <AlertingHeader
        actions={
          <button type="button" class="primary" onClick={() => setEditing('new')} disabled={!providers.data}>
            Add a channel
          </button>
        }
      />
      <p class="muted">
        Channels are where alerts go: chat, paging services, e-mail, webhooks. Routes choose the channels of each
        incident; escalation policies call more of them while nobody acknowledges.
      </p>
      {action.error ? <ErrorText error={action.error} /> : null}
      <p role="status" class={tested?.ok ? 'done' : undefined}>
        {tested?.text ?? ''}
      </p>
      {channels.error ? <ErrorText error={channels.error} retry={channels.reload} /> : null}
      {providers.error ? <ErrorText error={providers.error} retry={providers.reload} /> : null}
      {!channels.data ? (
        channels.error ? null : (
          <Loading label="Loading channels…" />
        )
      ) : channels.data.length === 0 ? (
        <Empty title="No channels yet">
          <p>Add one to be told when something breaks; the first channel hears every incident.</p>
        </Empty>
      ) : (
        <Table
          caption="Notification channels"
          rows={channels.data}
          rowKey={(channel) => channel.id}
          columns={[
            {
              header: 'Name',
              cell: (channel) => (
                <>
                  {channel.name}
                  {managed.has(channel.id) && <ManagedBadge />}
                </>
              ),
            },
            { header: 'Provider', cell: (channel) => providerOf(channel.provider)?.label ?? channel.provider },
            {
              header: 'State',
              cell: (channel) =>
                !channel.enabled ? (
                  <Badge tone="neutral">disabled</Badge>
                ) : channel.state === 'ok' ? (
                  <Badge tone="up">ok</Badge>
                ) : (
                  <>
                    <Badge tone="down">failing</Badge> <span class="muted">{channel.stateReason ?? ''}</span>
                  </>
                ),
            },
            {
              header: 'Last delivery',
              cell: (channel) =>
                channel.lastDeliveryAt ? (
                  <>
                    <Time value={channel.lastDeliveryAt} />{' '}
                    <Badge tone={deliveryTone(channel.lastDeliveryStatus)}>{channel.lastDeliveryStatus ?? '—'}</Badge>
                  </>
                ) : (
                  'Never'
                ),
            },
            {
              header: 'Quiet hours',
              secondary: true,
              cell: (channel) =>
                channel.quietHours
                  ? `${channel.quietHours.from}–${channel.quietHours.to} ${channel.quietHours.timeZone}`
                  : '—',
            },
            {
              header: 'Actions',
              cell: (channel) => (
                <span class="component-actions">
                  <button
                    type="button"
                    class="link"
                    aria-label={`Test ${channel.name}`}
                    onClick={() => test(channel)}
                    disabled={action.busy}
                  >
                    Test
                  </button>
                  <button
                    type="button"
                    class="link"
                    aria-label={`Edit ${channel.name}`}
                    onClick={() => setEditing(channel)}
                    disabled={!providers.data}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    class="link"
                    aria-label={`Delete ${channel.name}`}
                    onClick={() => setDeleting(channel)}
                    disabled={action.busy}
                  >
                    Delete
                  </button>
                </span>
              ),
            },
          ]}
        />
      )}
      {editing && providers.data ? (
        <ChannelDialog
          channel={editing === 'new' ? undefined : editing}
          managed={editing !== 'new' && managed.has(editing.id)}
          providers={providers.data}
          onClose={(changed) => {
            setEditing(undefined)
            if (changed) channels.reload()
          }}
        />
      ) : null}
      <Confirm
        open={deleting !== undefined}
        title={`Delete ${deleting?.name ?? 'this channel'}?`}
        message="Routes and escalation policies stop sending to it, and its delivery history goes with it. This cannot be undone."
        confirmLabel="Delete channel"
        onConfirm={remove}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  )
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** Create or edit one channel; after a create, the secrets Guard generated are shown here once. */
function ChannelDialog({
  channel,
  managed,
  providers,
  onClose,
}: {
  channel: Channel | undefined
  managed: boolean
  providers: Provider[]
  onClose: (changed: boolean) => void
}) {
  const [providerId, setProviderId] = useState(channel?.provider ?? providers[0]?.id ?? '')
  const provider = providers.find((item) => item.id === providerId)
  const [name, setName] = useState(channel?.name ?? '')
  const [draft, setDraft] = useState<ConfigDraft>(() => (provider ? draftOf(provider, channel?.config) : {}))
  const [enabled, setEnabled] = useState(channel?.enabled ?? true)
  const [addToDefault, setAddToDefault] = useState(true)
  const [quiet, setQuiet] = useState<QuietHours | null>(channel?.quietHours ?? null)
  const [generated, setGenerated] = useState<Record<string, string> | undefined>(undefined)

  const pickProvider = (id: string) => {
    setProviderId(id)
    const next = providers.find((item) => item.id === id)
    if (next) setDraft(draftOf(next))
  }
  const submit = async () => {
    if (!provider) return
    const config = configOf(provider, draft)
    const quietHours = quiet && { ...quiet, days: quiet.days?.length ? quiet.days : undefined }
    if (channel) {
      await api.put(`/api/notification-channels/${encodeURIComponent(channel.id)}`, {
        name,
        config,
        enabled,
        quietHours,
      })
      onClose(true)
      return
    }
    const answer = await api.post<Envelope<Channel>>('/api/notification-channels', {
      name,
      provider: provider.id,
      config,
      enabled,
      quietHours,
      addToDefaultRoute: addToDefault,
    })
    const secrets = answer.data.generatedSecrets
    if (secrets && Object.keys(secrets).length > 0) setGenerated(secrets)
    else onClose(true)
  }

  const title = generated ? 'Channel created' : channel ? `Edit ${channel.name}` : 'Add a channel'
  return (
    <Dialog open title={title} onClose={() => onClose(generated !== undefined)}>
      {managed && <ManagedWarning />}
      {generated ? (
        <div class="one-time">
          <p>
            Guard generated these for the channel. Copy them now: they are shown <strong>once</strong>.
          </p>
          {Object.entries(generated).map(([key, value]) => (
            <Secret key={key} label={fieldLabel(key)} value={value} />
          ))}
          <div class="form-actions">
            <button type="button" class="primary" onClick={() => onClose(true)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <Form
          onSubmit={submit}
          submitLabel={channel ? 'Save channel' : 'Create channel'}
          onCancel={() => onClose(false)}
        >
          <Field label="Name">
            {(id) => (
              <input id={id} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            )}
          </Field>
          <Field label="Provider" hint={provider?.description}>
            {(id, describedBy) => (
              <select
                id={id}
                aria-describedby={describedBy}
                value={providerId}
                disabled={channel !== undefined}
                onChange={(e) => pickProvider(e.currentTarget.value)}
              >
                {providers.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {provider ? (
            <ConfigFields
              key={provider.id}
              provider={provider}
              draft={draft}
              onChange={setDraft}
              secretsSet={channel?.secretsSet ?? []}
            />
          ) : null}
          <label class="check">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
            Enabled
          </label>
          {channel ? null : (
            <label class="check">
              <input
                type="checkbox"
                checked={addToDefault}
                onChange={(e) => setAddToDefault(e.currentTarget.checked)}
              />
              Add to the default route (hears every incident no other route takes)
            </label>
          )}
          <QuietHoursFields value={quiet} onChange={setQuiet} />
        </Form>
      )}
    </Dialog>
  )
}

function QuietHoursFields({
  value,
  onChange,
}: {
  value: QuietHours | null
  onChange: (next: QuietHours | null) => void
}) {
  return (
    <fieldset>
      <legend>Quiet hours</legend>
      <label class="check">
        <input
          type="checkbox"
          checked={value !== null}
          onChange={(e) =>
            onChange(e.currentTarget.checked ? { timeZone: browserZone(), from: '22:00', to: '07:00' } : null)
          }
        />
        Hold non-critical alerts during quiet hours (sent as one digest afterwards)
      </label>
      {value ? (
        <>
          <Field label="Time zone" hint="IANA name, e.g. Europe/Berlin">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                required
                value={value.timeZone}
                onInput={(e) => onChange({ ...value, timeZone: e.currentTarget.value })}
              />
            )}
          </Field>
          <div class="row">
            <Field label="From">
              {(id) => (
                <input
                  id={id}
                  type="time"
                  required
                  value={value.from}
                  onInput={(e) => onChange({ ...value, from: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="To">
              {(id) => (
                <input
                  id={id}
                  type="time"
                  required
                  value={value.to}
                  onInput={(e) => onChange({ ...value, to: e.currentTarget.value })}
                />
              )}
            </Field>
          </div>
          <CheckGroup
            legend="Days"
            hint="None checked: every day."
            options={DAYS}
            value={(value.days ?? []).map(String)}
            onChange={(days) => onChange({ ...value, days: days.map(Number).sort((a, b) => a - b) })}
          />
        </>
      ) : null}
    </fieldset>
  )
}
