import { useState } from 'preact/hooks'
import { ApiError, api, type Envelope } from '../api.ts'
import { Confirm } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { sessionState } from '../session.ts'
import { useAction } from '../use-action.ts'
import { SettingsHeader } from './settings-nav.tsx'

interface BrowserSession {
  id: string
  createdAt: string
  authTime: string
  expiresAt: string
  ip: string | null
  userAgent: string | null
}

/** Identity's rule for new passwords, checked here too so the form says it before sending. */
const MIN_PASSWORD = 12

export default function SettingsProfile() {
  const user = sessionState.get()?.user
  const sessions = useResource(
    () => api.get<Envelope<BrowserSession[]>>('/api/account/sessions').then((body) => body.data),
    [],
  )
  const action = useAction()
  const [ending, setEnding] = useState<BrowserSession | undefined>(undefined)

  const end = async () => {
    const session = ending
    setEnding(undefined)
    if (!session) return
    await action.run(() => api.del(`/api/account/sessions/${encodeURIComponent(session.id)}`))
    sessions.reload()
  }

  return (
    <section class="screen">
      <SettingsHeader />
      <section class="settings-section" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <dl class="facts">
          <dt>Name</dt>
          <dd>{user?.name ?? '—'}</dd>
          <dt>Email</dt>
          <dd>{user?.email ?? '—'}</dd>
        </dl>
        <p class="muted">
          Your name and e-mail address are kept by Guard's identity service; the operator changes them.
        </p>
      </section>
      <PasswordForm onChanged={sessions.reload} />
      <section class="settings-section" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <p class="muted">
          Browsers signed in to Guard's sign-in page. Signing one out there does not end this console's own session.
        </p>
        {action.error ? <ErrorText error={action.error} /> : null}
        {sessions.error ? <ErrorText error={sessions.error} retry={sessions.reload} /> : null}
        {!sessions.data ? (
          sessions.error ? null : (
            <Loading label="Loading sessions…" lines={2} />
          )
        ) : sessions.data.length === 0 ? (
          <Empty title="No browser is signed in">A new sign-in asks for your password.</Empty>
        ) : (
          <Table
            caption="Browser sessions"
            rows={sessions.data}
            rowKey={(session) => session.id}
            columns={[
              { header: 'Signed in', cell: (session) => <Time value={session.authTime} /> },
              { header: 'Address', cell: (session) => session.ip ?? '—' },
              { header: 'Browser', secondary: true, cell: (session) => session.userAgent ?? '—' },
              { header: 'Expires', secondary: true, cell: (session) => <Time value={session.expiresAt} /> },
              {
                header: 'Actions',
                cell: (session) => (
                  <button
                    type="button"
                    class="link"
                    disabled={action.busy}
                    aria-label={`Sign out the session from ${session.ip ?? 'an unknown address'}`}
                    onClick={() => setEnding(session)}
                  >
                    Sign out
                  </button>
                ),
              },
            ]}
          />
        )}
      </section>
      <Confirm
        open={ending !== undefined}
        title="Sign this browser out?"
        message="That browser has to enter your password again to sign in."
        confirmLabel="Sign out"
        onConfirm={end}
        onClose={() => setEnding(undefined)}
      />
    </section>
  )
}

function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [repeat, setRepeat] = useState('')
  const [changed, setChanged] = useState(false)

  const submit = async () => {
    setChanged(false)
    if (next.length < MIN_PASSWORD) {
      throw new ApiError(400, 'VALIDATION_ERROR', `The new password needs at least ${MIN_PASSWORD} characters.`)
    }
    if (next !== repeat) throw new ApiError(400, 'VALIDATION_ERROR', 'The two new passwords differ.')
    await api.post('/api/account/password', { currentPassword: current, newPassword: next })
    setCurrent('')
    setNext('')
    setRepeat('')
    setChanged(true)
    onChanged()
  }
  const typed = (set: (value: string) => void) => (event: { currentTarget: HTMLInputElement }) => {
    set(event.currentTarget.value)
    setChanged(false)
  }

  return (
    <section class="settings-section" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <Form onSubmit={submit} submitLabel="Change password" busyLabel="Changing…">
        <Field label="Current password">
          {(id) => (
            <input
              id={id}
              type="password"
              autocomplete="current-password"
              required
              value={current}
              onInput={typed(setCurrent)}
            />
          )}
        </Field>
        <Field label="New password" hint={`At least ${MIN_PASSWORD} characters`}>
          {(id, describedBy) => (
            <input
              id={id}
              type="password"
              autocomplete="new-password"
              aria-describedby={describedBy}
              required
              minLength={MIN_PASSWORD}
              value={next}
              onInput={typed(setNext)}
            />
          )}
        </Field>
        <Field label="Repeat the new password">
          {(id) => (
            <input
              id={id}
              type="password"
              autocomplete="new-password"
              required
              value={repeat}
              onInput={typed(setRepeat)}
            />
          )}
        </Field>
        <p class="done" role="status">
          {changed ? 'Password changed. Every other sign-in has ended; this console stays signed in.' : ''}
        </p>
      </Form>
    </section>
  )
}
