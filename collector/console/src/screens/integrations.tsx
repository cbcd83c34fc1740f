import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Confirm } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import './screens.css'

interface Account {
  id: string
  name: string
  secretHint: string
  monitors: number
  createdAt: string
  url?: string
  username?: string
  subscriptionId?: string
}
interface Item {
  id: string
  externalId: string
  name: string
  kind: string
  target: { type: 'domain'; url: string } | { type: 'service'; protocol: 'tcp'; host: string; port: number }
  monitor: { type: 'domain' | 'service'; id: string } | null
}

/** What GET /api/integrations says of a platform: the product behind the neutral id. */
interface Platform {
  id: Provider['id']
  name: string
  description: string
}

interface Provider {
  id: 'cloud-a' | 'selfhost-b' | 'webhost-c'
  collection: 'accounts' | 'instances'
  items: 'services' | 'resources' | 'projects'
}

const PROVIDERS: Provider[] = [
  {
    id: 'cloud-a',
    collection: 'accounts',
    items: 'services',
  },
  {
    id: 'selfhost-b',
    collection: 'instances',
    items: 'resources',
  },
  {
    id: 'webhost-c',
    collection: 'accounts',
    items: 'projects',
  },
]

export default function Integrations() {
  const platforms = useResource(() => api.get<Envelope<Platform[]>>('/api/integrations').then((b) => b.data), [])
  return (
    <section class="screen">
      <header class="page-head">
        <h1>Integrations</h1>
      </header>
      <p class="muted">
        Link a platform account, then pick what it hosts: Guard creates the matching domain or service monitor.
      </p>
      {platforms.error ? <ErrorText error={platforms.error} retry={platforms.reload} /> : null}
      {PROVIDERS.map((provider) => (
        <ProviderCard
          key={provider.id}
          provider={provider}
          platform={platforms.data?.find((platform) => platform.id === provider.id)}
        />
      ))}
    </section>
  )
}

function ProviderCard({ provider, platform }: { provider: Provider; platform: Platform | undefined }) {
  // Until the API has named it (or when it cannot), the neutral id its paths use.
  const title = platform?.name ?? provider.id
  const { current } = useOrg()
  const base = `/api/${provider.id}/${provider.collection}`
  const accounts = useResource(
    () => api.get<Envelope<Account[]>>(base, { organizationId: current.id }).then((b) => b.data),
    [base, current.id],
  )
  const [linking, setLinking] = useState(false)
  const [open, setOpen] = useState<string | undefined>(undefined)
  const [deleting, setDeleting] = useState<Account | undefined>(undefined)
  const action = useAction()

  const unlink = async () => {
    const account = deleting
    setDeleting(undefined)
    if (!account) return
    if ((await action.run(() => api.del(`${base}/${encodeURIComponent(account.id)}`))) !== undefined) {
      if (open === account.id) setOpen(undefined)
      accounts.reload()
    }
  }

  return (
    <section class="card integration" aria-labelledby={`provider-${provider.id}`}>
      <header class="page-head">
        <h2 id={`provider-${provider.id}`}>{title}</h2>
        <div class="actions">
          <button type="button" onClick={() => setLinking(!linking)} aria-expanded={linking}>
            {linking ? 'Cancel' : provider.id === 'webhost-c' ? 'Connect an account' : 'Link'}
          </button>
        </div>
      </header>
      {platform ? <p>{platform.description}</p> : null}
      <p class="muted">
        API: <code>/api/{provider.id}/…</code>
      </p>
      {linking ? (
        <LinkForm
          provider={provider}
          title={title}
          base={base}
          onLinked={() => {
            setLinking(false)
            accounts.reload()
          }}
        />
      ) : null}
      {action.error ? <ErrorText error={action.error} /> : null}
      {accounts.error ? <ErrorText error={accounts.error} retry={accounts.reload} /> : null}
      {!accounts.data ? (
        accounts.error ? null : (
          <Loading lines={2} />
        )
      ) : accounts.data.length === 0 ? (
        <p class="muted">Nothing linked.</p>
      ) : (
        <ul class="accounts">
          {accounts.data.map((account) => (
            <li key={account.id}>
              <div class="account-head">
                <strong>{account.name}</strong>
                <span class="muted">
                  {account.url ?? account.username ?? account.subscriptionId ?? ''} · secret {account.secretHint} ·{' '}
                  {account.monitors} monitor{account.monitors === 1 ? '' : 's'} · linked{' '}
                  <Time value={account.createdAt} />
                </span>
                <span class="actions">
                  <button
                    type="button"
                    aria-expanded={open === account.id}
                    onClick={() => setOpen(open === account.id ? undefined : account.id)}
                  >
                    {open === account.id ? 'Hide' : `Show ${provider.items}`}
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(account)}>
                    Unlink
                  </button>
                </span>
              </div>
              {open === account.id ? (
                <Items
                  path={`${base}/${encodeURIComponent(account.id)}/${provider.items}`}
                  onMonitored={accounts.reload}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Confirm
        open={deleting !== undefined}
        title={`Unlink ${deleting?.name ?? ''}?`}
        message="Guard forgets the stored credentials. Monitors created from it keep running."
        confirmLabel="Unlink"
        onConfirm={unlink}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  )
}

function LinkForm({
  provider,
  title,
  base,
  onLinked,
}: {
  provider: Provider
  title: string
  base: string
  onLinked: () => void
}) {
  const { current } = useOrg()
  const [values, setValues] = useState<Record<string, string>>({})
  const target = `${base}?organizationId=${encodeURIComponent(current.id)}`
  const input = (name: string, label: string, type = 'text', hint?: string) => (
    <Field label={label} hint={hint}>
      {(id, describedBy) => (
        <input
          id={id}
          type={type}
          required
          aria-describedby={describedBy}
          autocomplete="off"
          value={values[name] ?? ''}
          onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
        />
      )}
    </Field>
  )

  if (provider.id === 'webhost-c') {
    const start = async () => {
      const answer = await api.post<Envelope<{ authorizationUrl: string }>>(target, {})
      location.assign(answer.data.authorizationUrl)
    }
    return (
      <Form onSubmit={start} submitLabel={`Continue to ${title}`} busyLabel="Starting…">
        <p>You sign in at {title} and approve the link; it sends you back here.</p>
      </Form>
    )
  }
  const submit = async () => {
    await api.post(target, values)
    setValues({})
    onLinked()
  }
  return (
    <Form onSubmit={submit} submitLabel="Link" busyLabel="Checking the credentials…">
      {provider.id === 'cloud-a' ? (
        <>
          {input('tenantId', 'Tenant id')}
          {input('clientId', 'Client id')}
          {input('clientSecret', 'Client secret', 'password', 'Stored encrypted; only its last characters are shown')}
          {input('subscriptionId', 'Subscription id')}
        </>
      ) : (
        <>
          {input('name', 'Name')}
          {input('url', 'Address', 'url', 'https://… of the instance')}
          {input('apiKey', 'API key', 'password', 'Stored encrypted; only its last characters are shown')}
        </>
      )}
    </Form>
  )
}

function Items({ path, onMonitored }: { path: string; onMonitored: () => void }) {
  const items = useResource(() => api.get<Envelope<Item[]>>(path).then((b) => b.data), [path])
  const action = useAction()
  const monitor = async (item: Item) => {
    const answer = await action.run(() => api.post(`${path}/${encodeURIComponent(item.id)}/monitor`, {}))
    if (answer !== undefined) {
      items.reload()
      onMonitored()
    }
  }
  if (items.error) return <ErrorText error={items.error} retry={items.reload} />
  if (!items.data) return <Loading lines={2} label="Asking the platform…" />
  if (items.data.length === 0) return <Empty title="Nothing to monitor on this account" />
  return (
    <>
      {action.error ? <ErrorText error={action.error} /> : null}
      <Table
        caption="What this account hosts"
        rows={items.data}
        rowKey={(item) => item.id}
        columns={[
          { header: 'Name', cell: (item) => item.name },
          { header: 'Kind', cell: (item) => item.kind },
          {
            header: 'Target',
            secondary: true,
            cell: (item) => (
              <code>{item.target.type === 'domain' ? item.target.url : `${item.target.host}:${item.target.port}`}</code>
            ),
          },
          {
            header: 'Monitor',
            cell: (item) =>
              item.monitor ? (
                <a href={`/${item.monitor.type}s/${encodeURIComponent(item.monitor.id)}`}>Monitored</a>
              ) : (
                <button type="button" onClick={() => monitor(item)} disabled={action.busy}>
                  Monitor
                </button>
              ),
          },
        ]}
      />
    </>
  )
}
