import { Cron } from 'croner'
import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { CopyBlock } from '../components/copy-block.tsx'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { TagChips, TagFilter, useTagFilter, useTags } from '../components/tags.tsx'
import { formatDateTime, Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import { type Heartbeat, REASON, RunLog, scheduleText, useRunLog } from './heartbeat-parts.tsx'
import './screens.css'
import { ManagedBadge, useManagedByCode } from '../components/managed-by-code.tsx'

/** The next five expected times of a schedule being typed, or why it is not one yet. */
function preview(kind: 'every' | 'cron', every: string, cron: string, timezone: string): string[] | string {
  if (kind === 'every') {
    const seconds = Number(every)
    if (!Number.isInteger(seconds) || seconds < 5) return 'A whole number of seconds, 5 or more'
    return Array.from({ length: 5 }, (_, index) => formatDateTime(Date.now() + (index + 1) * seconds * 1000))
  }
  try {
    const runs = new Cron(cron, { timezone, paused: true, mode: '5-or-6-parts' }).nextRuns(5)
    return runs.length ? runs.map((time) => formatDateTime(time)) : 'This expression never fires'
  } catch (error) {
    return error instanceof Error ? error.message : 'Not a cron expression'
  }
}

/** Copy-paste ways to ping: a shell line, a crontab entry, a systemd unit pair, a Kubernetes CronJob. */
function snippetsOf(heartbeat: Pick<Heartbeat, 'pingUrl' | 'cron' | 'every' | 'name'>) {
  const url = heartbeat.pingUrl
  const schedule = heartbeat.cron ?? '0 * * * *'
  const slug =
    heartbeat.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'job'
  return [
    {
      label: 'Shell',
      value: `curl -fsS -m 10 --retry 3 -o /dev/null "${url}/start"\nyour-job; curl -fsS -m 10 --retry 3 -o /dev/null "${url}/$?"`,
    },
    {
      label: 'crontab',
      value: `${schedule} your-job && curl -fsS -m 10 --retry 3 -o /dev/null "${url}" || curl -fsS -m 10 -o /dev/null "${url}/fail"`,
    },
    {
      label: 'guard heartbeat (start, exit code and output)',
      value: `GUARD_PING_URL="${url}" npx guard heartbeat -- your-job`,
    },
    {
      label: `systemd: ${slug}.service (run by a ${slug}.timer)`,
      value: `[Unit]\nDescription=${heartbeat.name}\n\n[Service]\nType=oneshot\nExecStartPre=-/usr/bin/curl -fsS -m 10 -o /dev/null ${url}/start\nExecStart=/usr/local/bin/your-job\nExecStopPost=/bin/sh -c 'curl -fsS -m 10 -o /dev/null ${url}/$$EXIT_STATUS'`,
    },
    {
      label: 'Kubernetes CronJob',
      value: `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: ${slug}\nspec:\n  schedule: "${schedule}"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: job\n              image: your-image\n              command: ["/bin/sh", "-c"]\n              args:\n                - curl -fsS -m 10 -o /dev/null ${url}/start; your-job; curl -fsS -m 10 -o /dev/null ${url}/$?`,
    },
  ]
}

export default function Heartbeats() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const [tagFilter, setTagFilter] = useTagFilter()
  const known = useTags()
  const list = useResource(
    () => api.get<Envelope<Heartbeat[]>>('/api/heartbeats', { tag: tagFilter }).then((b) => b.data),
    [current.id, tagFilter.join('\n')],
  )
  const [creating, setCreating] = useState(false)
  const [showing, setShowing] = useState<Heartbeat | undefined>(undefined)
  const [logOf, setLogOf] = useState<Heartbeat | undefined>(undefined)
  const [deleting, setDeleting] = useState<Heartbeat | undefined>(undefined)
  const action = useAction()

  const remove = async () => {
    const heartbeat = deleting
    setDeleting(undefined)
    if (!heartbeat) return
    if ((await action.run(() => api.del(`/api/heartbeats/${encodeURIComponent(heartbeat.id)}`))) !== undefined) {
      list.reload()
    }
  }

  return (
    <section class="screen">
      <header class="page-head">
        <h1>Heartbeats</h1>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            Create a heartbeat
          </button>
        </div>
      </header>
      <p class="muted">
        Cron jobs, backups and workers report in by calling their ping URL; a run that does not report in time, fails or
        takes too long opens an incident.
      </p>
      <div class="toolbar">
        <TagFilter label="Filter heartbeats by tag" known={known.tags} selected={tagFilter} onChange={setTagFilter} />
      </div>
      {action.error ? <ErrorText error={action.error} /> : null}
      {list.error ? <ErrorText error={list.error} retry={list.reload} /> : null}
      {!list.data ? (
        list.error ? null : (
          <Loading label="Loading heartbeats…" />
        )
      ) : list.data.length === 0 ? (
        tagFilter.length > 0 ? (
          <Empty title="No heartbeat matches">Change the tag filter.</Empty>
        ) : (
          <Empty title="No heartbeats yet" />
        )
      ) : (
        <Table
          caption="Heartbeats"
          rows={list.data}
          rowKey={(heartbeat) => heartbeat.id}
          columns={[
            {
              header: 'Name',
              cell: (heartbeat) => (
                <>
                  <a href={`/heartbeats/${encodeURIComponent(heartbeat.id)}`}>{heartbeat.name}</a>
                  {managed.has(heartbeat.id) && <ManagedBadge />}
                  <TagChips tags={heartbeat.tags} colorOf={known.colorOf} />
                </>
              ),
            },
            {
              header: 'State',
              cell: (heartbeat) => (
                <span>
                  <StateDot state={heartbeat.status} />
                  {heartbeat.status === 'down' && heartbeat.lastError ? (
                    <span class="muted"> ({REASON[heartbeat.lastError.kind] ?? heartbeat.lastError.kind})</span>
                  ) : null}
                </span>
              ),
            },
            { header: 'Schedule', secondary: true, cell: (heartbeat) => <code>{scheduleText(heartbeat)}</code> },
            {
              header: 'Last ping',
              cell: (heartbeat) => (heartbeat.lastPing ? <Time value={heartbeat.lastPing.at} /> : 'Never'),
            },
            { header: 'Expected', secondary: true, cell: (heartbeat) => <Time value={heartbeat.nextExpectedAt} /> },
            {
              header: 'Actions',
              cell: (heartbeat) => (
                <span class="row-actions">
                  <button
                    type="button"
                    class="link"
                    aria-label={`Ping URL of ${heartbeat.name}`}
                    onClick={() => setShowing(heartbeat)}
                  >
                    Ping URL
                  </button>{' '}
                  <button
                    type="button"
                    class="link"
                    aria-label={`Run log of ${heartbeat.name}`}
                    onClick={() => setLogOf(heartbeat)}
                  >
                    Run log
                  </button>{' '}
                  <button
                    type="button"
                    class="link"
                    aria-label={`Delete ${heartbeat.name}`}
                    onClick={() => setDeleting(heartbeat)}
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
      <CreateDialog
        open={creating}
        onClose={(created) => {
          setCreating(false)
          if (created) list.reload()
        }}
      />
      <Dialog open={showing !== undefined} title={`Ping ${showing?.name ?? ''}`} onClose={() => setShowing(undefined)}>
        {showing ? <Snippets heartbeat={showing} /> : null}
      </Dialog>
      <Dialog open={logOf !== undefined} title={`Run log of ${logOf?.name ?? ''}`} onClose={() => setLogOf(undefined)}>
        {logOf ? <RunLogOf heartbeat={logOf} /> : null}
      </Dialog>
      <Confirm
        open={deleting !== undefined}
        title={`Delete ${deleting?.name ?? 'this heartbeat'}?`}
        message="Its ping URL stops answering at once; its history stays until its retention ends."
        confirmLabel="Delete heartbeat"
        onConfirm={remove}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  )
}

/** The run log of the heartbeat its dialog was opened for. */
function RunLogOf({ heartbeat }: { heartbeat: Heartbeat }) {
  const { current } = useOrg()
  return <RunLog name={heartbeat.name} pings={useRunLog(heartbeat.id, current.id)} />
}

function Snippets({ heartbeat }: { heartbeat: Heartbeat }) {
  return (
    <div class="snippets">
      <CopyBlock label="Ping URL" value={heartbeat.pingUrl} />
      <p class="muted">
        <code>/start</code> when a run begins, <code>/fail</code> on failure, <code>/&lt;exit code&gt;</code> with its
        status; add <code>?rid=…</code> to pair overlapping runs.
      </p>
      {snippetsOf(heartbeat).map((snippet) => (
        <CopyBlock key={snippet.label} label={snippet.label} value={snippet.value} />
      ))}
    </div>
  )
}

function CreateDialog({ open, onClose }: { open: boolean; onClose: (created: boolean) => void }) {
  const [name, setName] = useState('')
  const [kind, setKind] = useState<'every' | 'cron'>('cron')
  const [every, setEvery] = useState('3600')
  const [cron, setCron] = useState('0 3 * * *')
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
  const [grace, setGrace] = useState('300')
  const [maxDuration, setMaxDuration] = useState('')
  const [created, setCreated] = useState<Heartbeat | undefined>(undefined)
  const times = preview(kind, every, cron, timezone)

  const close = () => {
    const wasCreated = created !== undefined
    setCreated(undefined)
    setName('')
    onClose(wasCreated)
  }
  const submit = async () => {
    const body: Record<string, unknown> = {
      name,
      grace: Number(grace),
      ...(kind === 'every' ? { every: Number(every) } : { cron, timezone }),
      ...(maxDuration ? { maxDuration: Number(maxDuration) } : {}),
    }
    setCreated((await api.post<Envelope<Heartbeat>>('/api/heartbeats', body)).data)
  }

  return (
    <Dialog open={open} title={created ? `Ping ${created.name}` : 'Create a heartbeat'} onClose={close}>
      {created ? (
        <div>
          <Snippets heartbeat={created} />
          <div class="form-actions">
            <button type="button" class="primary" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <Form onSubmit={submit} submitLabel="Create heartbeat" busyLabel="Creating…" onCancel={close}>
          <Field label="Name" hint="The job it watches, e.g. Nightly backup">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                required
                maxLength={200}
                value={name}
                onInput={(e) => setName(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Schedule">
            {(id) => (
              <select id={id} value={kind} onChange={(e) => setKind(e.currentTarget.value as 'every' | 'cron')}>
                <option value="cron">A cron expression</option>
                <option value="every">A fixed period</option>
              </select>
            )}
          </Field>
          {kind === 'every' ? (
            <Field label="Every (seconds)">
              {(id) => (
                <input
                  id={id}
                  type="number"
                  min={5}
                  required
                  value={every}
                  onInput={(e) => setEvery(e.currentTarget.value)}
                />
              )}
            </Field>
          ) : (
            <>
              <Field label="Cron expression" hint="minute hour day-of-month month day-of-week, e.g. 0 3 * * *">
                {(id, describedBy) => (
                  <input
                    id={id}
                    aria-describedby={describedBy}
                    required
                    value={cron}
                    onInput={(e) => setCron(e.currentTarget.value)}
                  />
                )}
              </Field>
              <Field label="Time zone" hint="IANA name, e.g. Europe/Amsterdam">
                {(id, describedBy) => (
                  <input
                    id={id}
                    aria-describedby={describedBy}
                    required
                    value={timezone}
                    onInput={(e) => setTimezone(e.currentTarget.value)}
                  />
                )}
              </Field>
            </>
          )}
          <div class="field" aria-live="polite">
            <span class="hint">Next expected</span>
            {typeof times === 'string' ? (
              <p class="muted">{times}</p>
            ) : (
              <ol class="next-times">
                {times.map((time) => (
                  <li key={time}>{time}</li>
                ))}
              </ol>
            )}
          </div>
          <Field label="Grace (seconds)" hint="How late a ping may be before the run counts as missed">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="number"
                min={0}
                required
                value={grace}
                onInput={(e) => setGrace(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Maximum run time (seconds, optional)" hint="From the /start ping; longer runs are down">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="number"
                min={1}
                value={maxDuration}
                onInput={(e) => setMaxDuration(e.currentTarget.value)}
              />
            )}
          </Field>
        </Form>
      )}
    </Dialog>
  )
}
