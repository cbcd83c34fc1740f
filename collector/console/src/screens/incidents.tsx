import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { formatDuration, Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { useOrg } from '../org.ts'
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES, type Incident, severityTone } from '../types.ts'
import './screens.css'

interface IncidentPage {
  data: Incident[]
  pagination: { page: number; limit: number; total: number; totalPages: number }
}

export const INCIDENT_EVENTS = ['incident.opened', 'incident.updated', 'incident.resolved']
const PAGE_SIZE = 20

export const statusTone = (status: string) => (status === 'resolved' ? 'up' : status === 'open' ? 'down' : 'degraded')

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replaceAll('-', ' ')

export default function Incidents() {
  const { current } = useOrg()
  const [status, setStatus] = useState('')
  const [severity, setSeverity] = useState('')
  const [page, setPage] = useState(1)
  const [creating, setCreating] = useState(false)
  const incidents = useResource(
    () =>
      api.get<IncidentPage>('/api/incidents', {
        organizationId: current.id,
        status,
        severity,
        page,
        limit: PAGE_SIZE,
      }),
    [current.id, status, severity, page],
  )
  useLive(INCIDENT_EVENTS, () => incidents.reload())
  const filtered = status !== '' || severity !== ''
  const pages = incidents.data?.pagination.totalPages ?? 1

  return (
    <section class="screen">
      <header class="page-head">
        <h1>Incidents</h1>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            Declare an incident
          </button>
        </div>
      </header>
      <div class="toolbar">
        <label for="incident-status">Status</label>
        <select
          id="incident-status"
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value)
            setPage(1)
          }}
        >
          <option value="">Any</option>
          {INCIDENT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {label(value)}
            </option>
          ))}
        </select>
        <label for="incident-severity">Severity</label>
        <select
          id="incident-severity"
          value={severity}
          onChange={(event) => {
            setSeverity(event.currentTarget.value)
            setPage(1)
          }}
        >
          <option value="">Any</option>
          {INCIDENT_SEVERITIES.map((value) => (
            <option key={value} value={value}>
              {label(value)}
            </option>
          ))}
        </select>
      </div>

      {incidents.error ? <ErrorText error={incidents.error} retry={incidents.reload} /> : null}
      {!incidents.data ? (
        incidents.error ? null : (
          <Loading label="Loading incidents…" />
        )
      ) : incidents.data.data.length === 0 ? (
        <Empty title={filtered ? 'No incident matches these filters' : 'No incidents'}>
          {filtered ? null : <p>When a monitor goes down, its incident opens here by itself.</p>}
        </Empty>
      ) : (
        <>
          <Table
            caption="Incidents, newest first"
            rows={incidents.data.data}
            rowKey={(incident) => incident.id}
            columns={[
              {
                header: 'Incident',
                cell: (incident) => <a href={`/incidents/${encodeURIComponent(incident.id)}`}>{incident.title}</a>,
              },
              {
                header: 'Status',
                cell: (incident) => <Badge tone={statusTone(incident.status)}>{label(incident.status)}</Badge>,
              },
              {
                header: 'Severity',
                cell: (incident) => (
                  <Badge tone={severityTone[incident.severity] ?? 'neutral'}>{label(incident.severity)}</Badge>
                ),
              },
              { header: 'Cause', secondary: true, cell: (incident) => label(incident.cause) },
              { header: 'Detected', cell: (incident) => <Time value={incident.detectedAt} /> },
              {
                header: 'Duration',
                secondary: true,
                cell: (incident) =>
                  formatDuration(
                    ((incident.resolvedAt ? Date.parse(incident.resolvedAt) : Date.now()) -
                      Date.parse(incident.detectedAt)) /
                      1000,
                  ),
              },
            ]}
          />
          {pages > 1 ? (
            <nav class="pager" aria-label="Pages">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Newer
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Older
              </button>
            </nav>
          ) : null}
        </>
      )}
      <DeclareDialog
        open={creating}
        onClose={(created) => {
          setCreating(false)
          if (created) incidents.reload()
        }}
      />
    </section>
  )
}

function DeclareDialog({ open, onClose }: { open: boolean; onClose: (created: boolean) => void }) {
  const { current } = useOrg()
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [severity, setSeverity] = useState('medium')
  const submit = async () => {
    await api.post(`/api/incidents?organizationId=${encodeURIComponent(current.id)}`, {
      title,
      description,
      severity,
    })
    setTitle('')
    setDescription('')
    onClose(true)
  }
  return (
    <Dialog open={open} title="Declare an incident" onClose={() => onClose(false)}>
      <Form onSubmit={submit} submitLabel="Declare" onCancel={() => onClose(false)}>
        <Field label="Title">
          {(id) => (
            <input id={id} required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Description" hint="Optional">
          {(id, describedBy) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              rows={3}
              maxLength={5000}
              value={description}
              onInput={(e) => setDescription(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Severity">
          {(id) => (
            <select id={id} value={severity} onChange={(e) => setSeverity(e.currentTarget.value)}>
              {INCIDENT_SEVERITIES.map((value) => (
                <option key={value} value={value}>
                  {label(value)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </Form>
    </Dialog>
  )
}
