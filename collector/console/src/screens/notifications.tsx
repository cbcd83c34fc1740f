import { useEffect, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { Secret } from '../components/secret.tsx'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Tabs } from '../components/tabs.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import './screens.css'

interface Notification {
  id: string
  message: string
  type: 'error' | 'warning' | 'success' | 'info'
  isRead: boolean
  createdAt: string
  eventType: string
  incidentId: string | null
}
interface Feed {
  data: Notification[]
  unreadCount: number
}
interface Settings {
  emailNotifications: boolean
  browserNotifications: boolean
  emailIncidents: boolean
  emailDowntime: boolean
  emailWeeklyReports: boolean
  slackEnabled: boolean
  slackWebhookUrl: string | null
  webhookUrl: string | null
  webhookSecretSet: boolean
  webhookSecret?: string
  email: string | null
  updatedAt: string
}
interface Delivery {
  id: string
  channel: 'webhook' | 'slack' | 'email'
  target: string
  eventType: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  nextAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
}

/** The live event of a new notification of the signed-in user. */
const FEED_EVENTS = ['notification.created']
const TONE: Record<Notification['type'], string> = {
  error: 'down',
  warning: 'degraded',
  success: 'up',
  info: 'neutral',
}

export default function Notifications() {
  const [tab, setTab] = useState<'feed' | 'settings' | 'deliveries'>('feed')
  const tabs = [
    ['feed', 'Feed'],
    ['settings', 'Channels'],
    ['deliveries', 'Delivery log'],
  ] as const
  return (
    <section class="screen">
      <header class="page-head">
        <h1>Notifications</h1>
      </header>
      <Tabs label="Notifications" idPrefix="notifications" tabs={tabs} selected={tab} onSelect={setTab} />
      <div role="tabpanel" id="notifications-panel" aria-labelledby={`notifications-tab-${tab}`}>
        {tab === 'feed' ? <FeedPanel /> : tab === 'settings' ? <SettingsPanel /> : <DeliveriesPanel />}
      </div>
    </section>
  )
}

function FeedPanel() {
  const { current } = useOrg()
  const [unreadOnly, setUnreadOnly] = useState(false)
  const feed = useResource(
    () => api.get<Feed>('/api/notifications', { limit: 100, unreadOnly: unreadOnly ? 'true' : undefined }),
    [current.id, unreadOnly],
  )
  const action = useAction()
  useLive(FEED_EVENTS, () => feed.reload())

  const markRead = async (id: string) => {
    if ((await action.run(() => api.put(`/api/notifications/${encodeURIComponent(id)}/read`))) !== undefined)
      feed.reload()
  }
  const markAll = async () => {
    if ((await action.run(() => api.put('/api/notifications/read-all'))) !== undefined) feed.reload()
  }

  return (
    <>
      <div class="toolbar">
        <p aria-live="polite" class="unread-count">
          <strong>{feed.data?.unreadCount ?? '–'}</strong> unread
        </p>
        <label class="check">
          <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.currentTarget.checked)} />
          Unread only
        </label>
        <button type="button" onClick={markAll} disabled={action.busy || (feed.data?.unreadCount ?? 0) === 0}>
          Mark all read
        </button>
      </div>
      {action.error ? <ErrorText error={action.error} /> : null}
      {feed.error ? <ErrorText error={feed.error} retry={feed.reload} /> : null}
      {!feed.data ? (
        feed.error ? null : (
          <Loading label="Loading notifications…" />
        )
      ) : feed.data.data.length === 0 ? (
        <Empty title={unreadOnly ? 'Nothing unread' : 'No notifications yet'}>
          <p>Incidents and device alerts show up here as they happen.</p>
        </Empty>
      ) : (
        <ul class="feed">
          {feed.data.data.map((item) => (
            <li key={item.id} class={item.isRead ? 'read' : 'unread'}>
              <Badge tone={TONE[item.type]}>{item.isRead ? item.type : `${item.type} · new`}</Badge>
              <span class="feed-message">
                {item.incidentId ? (
                  <a href={`/incidents/${encodeURIComponent(item.incidentId)}`}>{item.message}</a>
                ) : (
                  item.message
                )}
              </span>
              <span class="muted">
                <Time value={item.createdAt} />
              </span>
              {item.isRead ? null : (
                <button type="button" class="link" onClick={() => markRead(item.id)} disabled={action.busy}>
                  Mark read
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

const SWITCHES: Array<[keyof Settings, string]> = [
  ['browserNotifications', 'In-app notifications (this feed, live)'],
  ['emailNotifications', 'E-mail'],
  ['emailDowntime', 'E-mail when a monitor goes down and comes back'],
  ['emailIncidents', 'E-mail other incidents (certificates, devices, manual)'],
  ['emailWeeklyReports', 'Weekly report by e-mail'],
  ['slackEnabled', 'Slack'],
]

function SettingsPanel() {
  const { current } = useOrg()
  const loaded = useResource(
    () => api.get<Envelope<Settings>>('/api/notifications/settings').then((b) => b.data),
    [current.id],
  )
  const [form, setForm] = useState<Settings | undefined>(undefined)
  const [slackUrl, setSlackUrl] = useState('')
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const [saved, setSaved] = useState(false)
  const test = useAction()
  const [testResult, setTestResult] = useState<string | undefined>(undefined)

  useEffect(() => {
    if (loaded.data) setForm(loaded.data)
  }, [loaded.data])

  if (!form) return loaded.error ? <ErrorText error={loaded.error} retry={loaded.reload} /> : <Loading />

  const save = async () => {
    setSaved(false)
    const body: Record<string, unknown> = {
      emailNotifications: form.emailNotifications,
      browserNotifications: form.browserNotifications,
      emailIncidents: form.emailIncidents,
      emailDowntime: form.emailDowntime,
      emailWeeklyReports: form.emailWeeklyReports,
      slackEnabled: form.slackEnabled,
      webhookUrl: form.webhookUrl?.trim() ? form.webhookUrl.trim() : null,
      email: form.email?.trim() ? form.email.trim() : null,
    }
    // The stored Slack URL comes back masked: it is sent only when the user typed a new one.
    if (slackUrl.trim()) body.slackWebhookUrl = slackUrl.trim()
    const answer = await api.put<Envelope<Settings>>('/api/notifications/settings', body)
    setForm(answer.data)
    setSlackUrl('')
    if (answer.data.webhookSecret) setSecret(answer.data.webhookSecret)
    setSaved(true)
  }
  const sendTest = async () => {
    setTestResult(undefined)
    const answer = await test.run(() =>
      api.post<Envelope<{ eventId: string; channels: string[] }>>('/api/notifications/test'),
    )
    if (answer)
      setTestResult(
        answer.data.channels.length === 0
          ? 'No channel is configured: nothing was sent.'
          : `Test queued on ${answer.data.channels.join(', ')}; see the delivery log.`,
      )
  }

  return (
    <div class="columns">
      <section class="card">
        <h2>Channels</h2>
        <Form onSubmit={save} submitLabel="Save settings">
          <fieldset>
            <legend>Send me</legend>
            {SWITCHES.map(([key, label]) => (
              <label class="check" key={key}>
                <input
                  type="checkbox"
                  checked={form[key] as boolean}
                  onChange={(e) => setForm({ ...form, [key]: e.currentTarget.checked })}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <Field label="E-mail address">
            {(id) => (
              <input
                id={id}
                type="email"
                value={form.email ?? ''}
                onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            label="Slack incoming webhook"
            hint={
              form.slackWebhookUrl
                ? `Stored: ${form.slackWebhookUrl}; type a new one to replace it`
                : 'https://hooks.slack.com/…'
            }
          >
            {(id, describedBy) => (
              <input
                id={id}
                type="url"
                aria-describedby={describedBy}
                value={slackUrl}
                onInput={(e) => setSlackUrl(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Webhook URL" hint="Receives signed JSON (Standard Webhooks) for every incident event">
            {(id, describedBy) => (
              <input
                id={id}
                type="url"
                aria-describedby={describedBy}
                value={form.webhookUrl ?? ''}
                onInput={(e) => setForm({ ...form, webhookUrl: e.currentTarget.value })}
              />
            )}
          </Field>
        </Form>
        <p aria-live="polite" class="muted">
          {saved ? 'Saved.' : ''}
        </p>
        {secret ? (
          <div class="one-time">
            <p>The webhook signing secret, shown this once:</p>
            <Secret label="Webhook secret" value={secret} />
          </div>
        ) : null}
      </section>
      <section class="card">
        <h2>Test</h2>
        <p>Sends a test message on every configured channel.</p>
        <button type="button" onClick={sendTest} disabled={test.busy}>
          {test.busy ? 'Sending…' : 'Send a test'}
        </button>
        {test.error ? <ErrorText error={test.error} /> : null}
        <p aria-live="polite">{testResult ?? ''}</p>
      </section>
    </div>
  )
}

function DeliveriesPanel() {
  const { current } = useOrg()
  const [channel, setChannel] = useState('')
  const [status, setStatus] = useState('')
  const deliveries = useResource(
    () =>
      api
        .get<Envelope<Delivery[]>>('/api/notifications/deliveries', { channel, status, limit: 100 })
        .then((b) => b.data),
    [current.id, channel, status],
  )
  return (
    <>
      <div class="toolbar">
        <label for="delivery-channel">Channel</label>
        <select id="delivery-channel" value={channel} onChange={(e) => setChannel(e.currentTarget.value)}>
          <option value="">Any</option>
          <option value="webhook">Webhook</option>
          <option value="slack">Slack</option>
          <option value="email">E-mail</option>
        </select>
        <label for="delivery-status">Status</label>
        <select id="delivery-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">Any</option>
          <option value="pending">Pending</option>
          <option value="delivered">Delivered</option>
          <option value="failed">Failed</option>
        </select>
        <button type="button" onClick={deliveries.reload}>
          Refresh
        </button>
      </div>
      {deliveries.error ? <ErrorText error={deliveries.error} retry={deliveries.reload} /> : null}
      {!deliveries.data ? (
        deliveries.error ? null : (
          <Loading />
        )
      ) : deliveries.data.length === 0 ? (
        <Empty title="No deliveries">
          <p>Messages sent to webhooks, Slack and e-mail are logged here with each attempt.</p>
        </Empty>
      ) : (
        <Table
          caption="Deliveries, newest first"
          rows={deliveries.data}
          rowKey={(row) => row.id}
          columns={[
            { header: 'When', cell: (row) => <Time value={row.createdAt} /> },
            { header: 'Channel', cell: (row) => row.channel },
            { header: 'Event', secondary: true, cell: (row) => row.eventType },
            { header: 'Target', secondary: true, cell: (row) => <code>{row.target}</code> },
            {
              header: 'Status',
              cell: (row) => (
                <Badge tone={row.status === 'delivered' ? 'up' : row.status === 'failed' ? 'down' : 'degraded'}>
                  {row.status}
                </Badge>
              ),
            },
            { header: 'Attempts', align: 'right', cell: (row) => row.attempts },
            {
              header: 'Last answer',
              cell: (row) => row.lastError ?? (row.lastStatusCode === null ? '—' : `HTTP ${row.lastStatusCode}`),
            },
          ]}
        />
      )}
    </>
  )
}
