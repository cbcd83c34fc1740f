import { useEffect, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { ErrorText, Loading } from '../components/status.tsx'
import { useResource } from '../components/use-api.ts'

type Mode = 'public' | 'password' | 'ip' | 'members'
interface Access {
  mode: Mode
  passwordSet: boolean
  allowList: string[]
  customDomain: string | null
}
interface DomainCheck {
  customDomain: string
  expected: string
  pointsAtCollector: boolean
  message: string
}

const MODES: Array<{ mode: Mode; label: string }> = [
  { mode: 'public', label: 'Anyone' },
  { mode: 'password', label: 'Visitors with the password' },
  { mode: 'ip', label: 'Visitors from listed addresses' },
  { mode: 'members', label: 'Members of this organization, signed in' },
]

/** Who may see a published page, and the host name it answers on, with a live check of its DNS. */
export function StatusPageAccess({ path }: { path: string }) {
  const loaded = useResource(() => api.get<Envelope<Access>>(`${path}/access`).then((body) => body.data), [path])
  const [access, setAccess] = useState<Access | undefined>(undefined)
  const [mode, setMode] = useState<Mode>('public')
  const [password, setPassword] = useState('')
  const [allowList, setAllowList] = useState('')
  const [domain, setDomain] = useState('')
  const [saved, setSaved] = useState('')

  const show = (next: Access) => {
    setAccess(next)
    setMode(next.mode)
    setAllowList(next.allowList.join('\n'))
    setDomain(next.customDomain ?? '')
  }
  useEffect(() => {
    if (loaded.data) show(loaded.data)
  }, [loaded.data])

  if (!access) {
    return (
      <section class="card">
        <h2>Access and domain</h2>
        {loaded.error ? <ErrorText error={loaded.error} retry={loaded.reload} /> : <Loading label="Loading access…" />}
      </section>
    )
  }

  const saveAccess = async () => {
    const body: Record<string, unknown> = { mode }
    if (password) body.password = password
    if (mode === 'ip') body.allowList = allowList.split(/[\s,]+/).filter(Boolean)
    const answer = await api.put<Envelope<Access>>(`${path}/access`, body)
    setPassword('')
    show(answer.data)
    setSaved('Access saved.')
  }
  const saveDomain = async () => {
    const answer = await api.put<Envelope<Access>>(`${path}/domain`, { customDomain: domain.trim() || null })
    show(answer.data)
    setSaved(answer.data.customDomain ? `The page answers on ${answer.data.customDomain}.` : 'Custom domain removed.')
  }

  return (
    <section class="card">
      <h2>Access and domain</h2>
      <p class="muted" role="status">
        {saved}
      </p>
      <Form onSubmit={saveAccess} submitLabel="Save access">
        <fieldset class="choices">
          <legend>Who can see the published page</legend>
          {MODES.map((item) => (
            <label class="check" key={item.mode}>
              <input
                type="radio"
                name="access-mode"
                value={item.mode}
                checked={mode === item.mode}
                onChange={() => setMode(item.mode)}
              />
              {item.label}
            </label>
          ))}
        </fieldset>
        {mode === 'password' ? (
          <Field
            label={access.passwordSet ? 'New password' : 'Password'}
            hint={
              access.passwordSet
                ? 'A password is set; leave empty to keep it. A new one signs every visitor out.'
                : 'At least 8 characters'
            }
          >
            {(id, describedBy) => (
              <input
                id={id}
                type="password"
                autocomplete="new-password"
                aria-describedby={describedBy}
                minLength={8}
                maxLength={200}
                required={!access.passwordSet}
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            )}
          </Field>
        ) : null}
        {mode === 'ip' ? (
          <Field label="Allowed addresses" hint="One address or CIDR range per line, e.g. 203.0.113.0/24">
            {(id, describedBy) => (
              <textarea
                id={id}
                rows={3}
                aria-describedby={describedBy}
                required
                value={allowList}
                onInput={(e) => setAllowList(e.currentTarget.value)}
              />
            )}
          </Field>
        ) : null}
      </Form>
      <Form onSubmit={saveDomain} submitLabel="Save domain">
        <Field
          label="Custom domain"
          hint="e.g. status.example.com, a CNAME of this Guard's public host; empty for none"
        >
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              maxLength={253}
              placeholder="status.example.com"
              value={domain}
              onInput={(e) => setDomain(e.currentTarget.value)}
            />
          )}
        </Field>
      </Form>
      {access.customDomain ? <DnsCheck path={path} domain={access.customDomain} /> : null}
    </section>
  )
}

/** Resolves the saved domain now and says whether it points at this collector. */
function DnsCheck({ path, domain }: { path: string; domain: string }) {
  const check = useResource(
    () => api.get<Envelope<DomainCheck>>(`${path}/domain/check`).then((body) => body.data),
    [path, domain],
  )
  return (
    <div class="dns-check" aria-live="polite">
      {check.error ? (
        <ErrorText error={check.error} retry={check.reload} />
      ) : check.data ? (
        <p>
          <strong>{check.data.pointsAtCollector ? 'DNS is ready.' : 'DNS is not ready yet.'}</strong>{' '}
          {check.data.message}
        </p>
      ) : (
        <Loading label="Checking DNS…" />
      )}
      <button type="button" onClick={check.reload} disabled={check.loading}>
        Check DNS again
      </button>
    </div>
  )
}
