import { useState } from 'preact/hooks'
import { api, type Envelope, withQuery } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useAction } from '../use-action.ts'

interface Subscriber {
  id: string
  kind: 'email' | 'webhook'
  target: string
  componentIds: string[]
  confirmed: boolean
  createdAt: string
}

/**
 * The page's subscribers (README "Status page subscribers"): who follows it and what, removing
 * one, the list as CSV, importing addresses the organization already has consent from, and how
 * early maintenance is announced.
 */
export function StatusPageSubscribers({
  path,
  components,
}: {
  path: string
  components: Array<{ id: string; displayName: string }>
}) {
  const list = useResource(
    () => api.get<Envelope<Subscriber[]>>(`${path}/subscribers`).then((body) => body.data),
    [path],
  )
  const settings = useResource(
    () => api.get<Envelope<{ maintenanceNoticeHours: number }>>(`${path}/subscriber-settings`).then((b) => b.data),
    [path],
  )
  const [addresses, setAddresses] = useState('')
  const [imported, setImported] = useState<string | undefined>(undefined)
  const [hours, setHours] = useState<string | undefined>(undefined)
  const action = useAction()
  const names = new Map(components.map((component) => [component.id, component.displayName]))

  const remove = async (subscriber: Subscriber) => {
    const answer = await action.run(() => api.del(`${path}/subscribers/${encodeURIComponent(subscriber.id)}`))
    if (answer !== undefined) list.reload()
  }
  const importList = async () => {
    const emails = addresses
      .split(/[\s,;]+/)
      .map((address) => address.trim())
      .filter(Boolean)
    const answer = await api.post<Envelope<{ imported: number; skipped: number }>>(`${path}/subscribers/import`, {
      emails,
    })
    setAddresses('')
    setImported(`${answer.data.imported} imported, ${answer.data.skipped} already subscribed`)
    list.reload()
  }
  const saveHours = async () => {
    await api.put(`${path}/subscriber-settings`, { maintenanceNoticeHours: Number(hours) })
    settings.reload()
  }

  return (
    <section class="card" aria-labelledby="subscribers-title">
      <h2 id="subscribers-title">Subscribers</h2>
      {action.error ? <ErrorText error={action.error} /> : null}
      {list.error ? <ErrorText error={list.error} retry={list.reload} /> : null}
      {!list.data ? (
        list.error ? null : (
          <Loading label="Loading subscribers…" />
        )
      ) : list.data.length === 0 ? (
        <Empty title="No subscribers yet">
          <p>Visitors subscribe on the public page by e-mail or webhook, or import addresses below.</p>
        </Empty>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Subscriber</th>
              <th scope="col">Follows</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((subscriber) => (
              <tr key={subscriber.id}>
                <td>
                  {subscriber.target} <span class="muted">{subscriber.kind === 'email' ? 'e-mail' : 'webhook'}</span>
                  {subscriber.confirmed ? null : <span class="muted"> (not confirmed yet)</span>}
                </td>
                <td>
                  {subscriber.componentIds.length === 0
                    ? 'The whole page'
                    : subscriber.componentIds.map((id) => names.get(id) ?? 'removed component').join(', ')}
                </td>
                <td>
                  <Time value={subscriber.createdAt} />
                </td>
                <td>
                  <button
                    type="button"
                    aria-label={`Remove ${subscriber.target}`}
                    disabled={action.busy}
                    onClick={() => void remove(subscriber)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a class="button" href={withQuery(`${path}/subscribers`, { format: 'csv' })} download>
          Export CSV
        </a>
      </p>
      <Form onSubmit={importList} submitLabel="Import" busyLabel="Importing…">
        <Field
          label="Import e-mail addresses"
          hint="One per line or comma-separated; only addresses that agreed to hear from you: they are not asked to confirm"
        >
          {(id, describedBy) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              rows={3}
              required
              value={addresses}
              onInput={(e) => setAddresses(e.currentTarget.value)}
            />
          )}
        </Field>
      </Form>
      {imported ? <p role="status">{imported}</p> : null}
      {settings.data ? (
        <Form onSubmit={saveHours} submitLabel="Save">
          <Field
            label="Announce maintenance (hours ahead)"
            hint="Subscribers hear of a maintenance window this long before it starts"
          >
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="number"
                min={0}
                max={720}
                required
                value={hours ?? String(settings.data?.maintenanceNoticeHours ?? 24)}
                onInput={(e) => setHours(e.currentTarget.value)}
              />
            )}
          </Field>
        </Form>
      ) : null}
    </section>
  )
}
