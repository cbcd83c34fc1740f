import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Secret } from '../components/secret.tsx'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import './screens.css'
import { RESOURCES } from '../../../src/services/access/resources.ts'

interface ApiKey {
  id: string
  name: string
  prefix: string
  permissions: string[]
  created_at: string
  expires_at: string | null
  last_used_at: string | null
}

const EXPIRIES = [
  ['', 'Never'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
] as const

export default function ApiKeys() {
  const { current } = useOrg()
  const keys = useResource(() => api.get<Envelope<ApiKey[]>>('/api-keys').then((b) => b.data), [current.id])
  const [creating, setCreating] = useState(false)
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined)
  const action = useAction()

  const revoke = async () => {
    const key = revoking
    setRevoking(undefined)
    if (!key) return
    if ((await action.run(() => api.del(`/api-keys/${encodeURIComponent(key.id)}`))) !== undefined) keys.reload()
  }

  return (
    <section class="screen">
      <header class="page-head">
        <h1>API keys</h1>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            Create a key
          </button>
        </div>
      </header>
      <p class="muted">
        Keys authenticate scripts, the CLI, agents' enrolment and assistants (<code>Authorization: Bearer guard_…</code>
        ) on the same API this console uses.
      </p>
      {action.error ? <ErrorText error={action.error} /> : null}
      {keys.error ? <ErrorText error={keys.error} retry={keys.reload} /> : null}
      {!keys.data ? (
        keys.error ? null : (
          <Loading label="Loading keys…" />
        )
      ) : keys.data.length === 0 ? (
        <Empty title="No API keys" />
      ) : (
        <Table
          caption="API keys"
          rows={keys.data}
          rowKey={(key) => key.id}
          columns={[
            { header: 'Name', cell: (key) => key.name },
            { header: 'Key', cell: (key) => <code>{key.prefix}…</code> },
            {
              header: 'Permissions',
              secondary: true,
              cell: (key) => <span class="permissions">{key.permissions.join(', ')}</span>,
            },
            { header: 'Created', secondary: true, cell: (key) => <Time value={key.created_at} /> },
            { header: 'Last used', cell: (key) => (key.last_used_at ? <Time value={key.last_used_at} /> : 'Never') },
            {
              header: 'Expires',
              cell: (key) => (key.expires_at ? <Time value={key.expires_at} mode="full" /> : 'Never'),
            },
            {
              header: 'Actions',
              cell: (key) => (
                <button
                  type="button"
                  class="link"
                  aria-label={`Revoke ${key.name}`}
                  onClick={() => setRevoking(key)}
                  disabled={action.busy}
                >
                  Revoke
                </button>
              ),
            },
          ]}
        />
      )}
      <CreateDialog
        open={creating}
        onClose={(created) => {
          setCreating(false)
          if (created) keys.reload()
        }}
      />
      <Confirm
        open={revoking !== undefined}
        title={`Revoke ${revoking?.name ?? 'this key'}?`}
        message="Anything using this key is refused from now on. This cannot be undone."
        confirmLabel="Revoke key"
        onConfirm={revoke}
        onClose={() => setRevoking(undefined)}
      />
    </section>
  )
}

type Access = 'none' | 'read' | 'write'

function CreateDialog({ open, onClose }: { open: boolean; onClose: (created: boolean) => void }) {
  const [name, setName] = useState('')
  const [access, setAccess] = useState<Record<string, Access>>(() =>
    Object.fromEntries(RESOURCES.map((resource) => [resource, 'read'])),
  )
  const [expiry, setExpiry] = useState('')
  const [created, setCreated] = useState<(ApiKey & { key: string }) | undefined>(undefined)

  const close = () => {
    const wasCreated = created !== undefined
    setCreated(undefined)
    setName('')
    onClose(wasCreated)
  }
  const submit = async () => {
    // write implies read: a key that may change something may also read it.
    const permissions = RESOURCES.flatMap((resource) =>
      access[resource] === 'write'
        ? [`${resource}:read`, `${resource}:write`]
        : access[resource] === 'read'
          ? [`${resource}:read`]
          : [],
    )
    const body: Record<string, unknown> = { name, permissions }
    if (expiry) body.expires_at = new Date(Date.now() + Number(expiry) * 86_400_000).toISOString()
    const answer = await api.post<Envelope<ApiKey & { key: string }>>('/api-keys', body)
    setCreated(answer.data)
  }

  return (
    <Dialog open={open} title={created ? 'Your new API key' : 'Create an API key'} onClose={close}>
      {created ? (
        <div class="one-time">
          <p>
            Copy the key now: it is shown <strong>once</strong>, and Guard keeps only its hash.
          </p>
          <Secret label="API key" value={created.key} />
          <div class="form-actions">
            <button type="button" class="primary" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <Form onSubmit={submit} submitLabel="Create key" busyLabel="Creating…" onCancel={close}>
          <Field label="Name" hint="What uses it, e.g. deploy script">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                required
                maxLength={100}
                value={name}
                onInput={(e) => setName(e.currentTarget.value)}
              />
            )}
          </Field>
          <fieldset>
            <legend>Permissions</legend>
            <div class="permission-grid">
              {RESOURCES.map((resource) => (
                <label key={resource} class="permission">
                  <span>{resource}</span>
                  <select
                    value={access[resource]}
                    onChange={(e) => setAccess({ ...access, [resource]: e.currentTarget.value as Access })}
                  >
                    <option value="none">No access</option>
                    <option value="read">Read</option>
                    <option value="write">Read and write</option>
                  </select>
                </label>
              ))}
            </div>
          </fieldset>
          <Field label="Expires">
            {(id) => (
              <select id={id} value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
                {EXPIRIES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </Form>
      )}
    </Dialog>
  )
}
