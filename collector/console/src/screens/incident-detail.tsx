import { useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { formatDuration, Time } from '../components/time.tsx'
import { usePolling, useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { sessionState } from '../session.ts'
import { INCIDENT_STATUSES, type Incident, severityTone } from '../types.ts'
import { useAction } from '../use-action.ts'
import { IncidentAlerting, useAlertingTimeline } from './incident-alerting.tsx'
import { IncidentPublicWording } from './incident-public-wording.tsx'
import { INCIDENT_EVENTS, statusTone } from './incidents.tsx'
import './screens.css'

interface Update {
  id: string
  message: string
  status: string
  automatic: boolean
  author: string | null
  createdAt: string
}
interface Comment {
  id: string
  content: string
  isInternal: boolean
  author: string | null
  createdAt: string
}
type Entry = ({ kind: 'update' } & Update) | ({ kind: 'comment' } & Comment)

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replaceAll('-', ' ')
/** Authors are principals (`user:<id>`, `api_key:<id>`); the signed-in user reads as themselves. */
function who(author: string | null, automatic = false): string {
  if (automatic || !author) return 'Guard'
  const me = sessionState.get()?.user
  if (me && author === `user:${me.id}`) return me.name ?? me.email ?? 'you'
  if (author.startsWith('api_key:')) return 'an API key'
  if (author.startsWith('user:')) return 'a member'
  return author
}

const MONITOR_PATH: Record<string, string> = {
  domain: '/domains',
  service: '/services',
  device: '/devices',
  synthetic: '/synthetics',
}

export default function IncidentDetail() {
  const { params } = useRoute()
  const id = params.id ?? ''
  const path = `/api/incidents/${encodeURIComponent(id)}`
  const incident = useResource(
    () => api.get<Envelope<Incident & { updates: Update[] }>>(path).then((body) => body.data),
    [path],
  )
  const comments = useResource(() => api.get<Envelope<Comment[]>>(`${path}/comments`).then((body) => body.data), [path])
  const alerting = useAlertingTimeline(path)
  const action = useAction()
  const reload = () => {
    incident.reload()
    comments.reload()
  }
  useLive(INCIDENT_EVENTS, (event) => {
    if (event.data.incidentId !== id) return
    incident.reload()
    alerting.reload()
  })
  // Escalation steps and reminders are sent by a worker, not by an incident event: the timeline is polled.
  usePolling(alerting.reload, 10)

  const resolve = async () => {
    const answer = await action.run(() => api.put(path, { status: 'resolved' }))
    if (answer !== undefined) incident.reload()
  }
  // Acknowledging also stops the escalation and tells every channel that heard of the incident.
  const acknowledge = async () => {
    const answer = await action.run(() => api.post(`${path}/acknowledge`))
    if (answer === undefined) return
    incident.reload()
    alerting.reload()
  }

  if (!incident.data) {
    return (
      <section class="screen">
        <p>
          <a href="/incidents">← Incidents</a>
        </p>
        {incident.error ? (
          <ErrorText error={incident.error} retry={incident.reload} />
        ) : (
          <Loading label="Loading incident…" />
        )}
      </section>
    )
  }
  const i = incident.data
  const timeline: Entry[] = [
    ...i.updates.map((update) => ({ kind: 'update' as const, ...update })),
    ...(comments.data ?? []).map((comment) => ({ kind: 'comment' as const, ...comment })),
  ].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
  const resolved = i.status === 'resolved'
  const end = i.resolvedAt ? Date.parse(i.resolvedAt) : Date.now()

  return (
    <section class="screen">
      <p>
        <a href="/incidents">← Incidents</a>
      </p>
      <header class="page-head">
        <h1>{i.title}</h1>
        <Badge tone={statusTone(i.status)}>{label(i.status)}</Badge>
        <Badge tone={severityTone[i.severity] ?? 'neutral'}>{label(i.severity)}</Badge>
        <div class="actions">
          {i.status === 'open' ? (
            <button type="button" onClick={acknowledge} disabled={action.busy}>
              Acknowledge
            </button>
          ) : null}
          {resolved ? null : (
            <button type="button" class="primary" onClick={resolve} disabled={action.busy}>
              Resolve
            </button>
          )}
        </div>
      </header>
      {action.error ? <ErrorText error={action.error} /> : null}
      {i.description ? <p>{i.description}</p> : null}
      <dl class="facts">
        <dt>Detected</dt>
        <dd>
          <Time value={i.detectedAt} mode="full" />
        </dd>
        <dt>Duration</dt>
        <dd>
          {formatDuration((end - Date.parse(i.detectedAt)) / 1000)}
          {resolved ? '' : ' so far'}
        </dd>
        <dt>Acknowledged</dt>
        <dd>
          {i.acknowledgedAt ? (
            <>
              <Time value={i.acknowledgedAt} />
              {i.acknowledgedBy ? ` by ${who(i.acknowledgedBy)}` : ''}
            </>
          ) : (
            'Not yet'
          )}
        </dd>
        <dt>Resolved</dt>
        <dd>
          {i.resolvedAt ? (
            <>
              <Time value={i.resolvedAt} />
              {i.resolvedBy ? ` by ${who(i.resolvedBy)}` : ' automatically'}
            </>
          ) : (
            'Not yet'
          )}
        </dd>
        <dt>Cause</dt>
        <dd>
          {label(i.cause)}
          {i.monitorId && i.monitorKind && MONITOR_PATH[i.monitorKind] ? (
            <>
              {' · '}
              <a href={`${MONITOR_PATH[i.monitorKind]}/${encodeURIComponent(i.monitorId)}`}>the {i.monitorKind}</a>
            </>
          ) : null}
        </dd>
        <dt>Impact</dt>
        <dd>{label(i.impact)}</dd>
        {i.flapCount > 0 ? (
          <>
            <dt>Reopened</dt>
            <dd>{i.flapCount} times (flapping)</dd>
          </>
        ) : null}
      </dl>

      <div class="columns">
        <PostUpdate path={path} current={i.status} onPosted={incident.reload} />
        <PostComment path={path} onPosted={comments.reload} />
      </div>

      <IncidentPublicWording path={path} version={i.updates.length} />

      <IncidentAlerting timeline={alerting} />

      <h2>Timeline</h2>
      {comments.error ? <ErrorText error={comments.error} retry={reload} /> : null}
      {timeline.length === 0 ? (
        <Empty title="Nothing on the timeline yet" />
      ) : (
        <ol class="timeline">
          {timeline.map((entry) => (
            <li key={`${entry.kind}-${entry.id}`} class={`timeline-${entry.kind}`}>
              <div class="timeline-head">
                {entry.kind === 'update' ? (
                  <Badge tone={statusTone(entry.status)}>{label(entry.status)}</Badge>
                ) : (
                  <Badge tone={entry.isInternal ? 'degraded' : 'neutral'}>
                    {entry.isInternal ? 'Internal comment' : 'Comment'}
                  </Badge>
                )}
                <span class="muted">
                  {who(entry.author, entry.kind === 'update' && entry.automatic)} · <Time value={entry.createdAt} />
                </span>
              </div>
              <p class="timeline-body">{entry.kind === 'update' ? entry.message : entry.content}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function PostUpdate({ path, current, onPosted }: { path: string; current: string; onPosted: () => void }) {
  const [message, setMessage] = useState('')
  const [status, setStatus] = useState(current === 'open' ? 'investigating' : current)
  const [notifySubscribers, setNotifySubscribers] = useState(true)
  const submit = async () => {
    await api.post(`${path}/updates`, { message, status, notifySubscribers })
    setMessage('')
    setNotifySubscribers(true)
    onPosted()
  }
  return (
    <div class="card">
      <h2>Post an update</h2>
      <Form onSubmit={submit} submitLabel="Post update" busyLabel="Posting…">
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
              {INCIDENT_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {label(value)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Message" hint="Shown on public status pages that list this incident">
          {(id, describedBy) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              required
              rows={3}
              maxLength={5000}
              value={message}
              onInput={(e) => setMessage(e.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input
            type="checkbox"
            checked={notifySubscribers}
            onChange={(e) => setNotifySubscribers(e.currentTarget.checked)}
          />
          Notify status page subscribers
        </label>
      </Form>
    </div>
  )
}

function PostComment({ path, onPosted }: { path: string; onPosted: () => void }) {
  const [content, setContent] = useState('')
  const [isInternal, setInternal] = useState(true)
  const submit = async () => {
    await api.post(`${path}/comments`, { content, isInternal })
    setContent('')
    onPosted()
  }
  return (
    <div class="card">
      <h2>Comment</h2>
      <Form onSubmit={submit} submitLabel="Add comment" busyLabel="Adding…">
        <Field label="Comment">
          {(id) => (
            <textarea
              id={id}
              required
              rows={3}
              maxLength={5000}
              value={content}
              onInput={(e) => setContent(e.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={isInternal} onChange={(e) => setInternal(e.currentTarget.checked)} />
          Internal (members of the organization only)
        </label>
      </Form>
    </div>
  )
}
