import { useEffect, useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { Confirm } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import type { Device } from '../types.ts'
import { useAction } from '../use-action.ts'
import { StatusPageAccess } from './status-page-access.tsx'
import { StatusPageSubscribers } from './status-page-subscribers.tsx'
import { LOCALES, type Locale, type StatusPage } from './status-pages.tsx'
import './screens.css'
import { ManagedWarning, useManagedByCode } from '../components/managed-by-code.tsx'

type Kind = 'domain' | 'service' | 'heartbeat' | 'device'
interface Component {
  id: string
  kind: Kind
  subjectId: string
  displayName: string
  position: number
}
type Detail = StatusPage & { components: Component[] }
interface Candidate {
  kind: Kind
  id: string
  name: string
  state: string
}

const KIND_LABEL: Record<Kind, string> = {
  domain: 'Domain',
  service: 'Service',
  heartbeat: 'Heartbeat',
  device: 'Device',
}

/** Every domain, service, heartbeat and device of the organization, as things a page can show. */
function useCandidates(organizationId: string) {
  return useResource(async () => {
    const [domains, services, heartbeats, devices] = await Promise.all([
      api.get<{ data: Array<{ id: string; name: string; status: string }> }>('/api/domains', {
        organization: organizationId,
        limit: 200,
      }),
      api.get<Envelope<Array<{ id: string; name: string; status: string }>>>('/api/services', { organizationId }),
      api.get<Envelope<Array<{ id: string; name: string; status: string }>>>('/api/heartbeats', { organizationId }),
      api.get<Envelope<Device[]>>('/api/devices', { organizationId }),
    ])
    return [
      ...domains.data.map((d) => ({ kind: 'domain' as const, id: d.id, name: d.name, state: d.status })),
      ...services.data.map((s) => ({ kind: 'service' as const, id: s.id, name: s.name, state: s.status })),
      ...heartbeats.data.map((h) => ({ kind: 'heartbeat' as const, id: h.id, name: h.name, state: h.status })),
      ...devices.data.map((d) => ({
        kind: 'device' as const,
        id: d.id,
        name: d.name,
        state: d.isOnline ? 'up' : 'down',
      })),
    ] satisfies Candidate[]
  }, [organizationId])
}

export default function StatusPageEditor() {
  const { params } = useRoute()
  const { route } = useLocation()
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const path = `/api/status-pages/${encodeURIComponent(params.id ?? '')}`
  const loaded = useResource(() => api.get<Envelope<Detail>>(path).then((body) => body.data), [path])
  const candidates = useCandidates(current.id)
  const [page, setPage] = useState<Detail | undefined>(undefined)
  const [draft, setDraft] = useState({
    name: '',
    slug: '',
    description: '',
    isPublic: false,
    automaticIncidents: 'publish' as StatusPage['automaticIncidents'],
    locale: 'en' as Locale,
  })
  const [version, setVersion] = useState(0)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const action = useAction()

  useEffect(() => {
    if (!loaded.data) return
    setPage(loaded.data)
    const { name, slug, description, isPublic, automaticIncidents, locale } = loaded.data
    setDraft({ name, slug, description, isPublic, automaticIncidents, locale })
  }, [loaded.data])

  const changed = (next: Detail) => {
    setPage(next)
    setVersion((value) => value + 1)
  }
  const save = async () => {
    const answer = await api.put<Envelope<Detail>>(path, draft)
    changed(answer.data)
  }
  const mutate = async (call: () => Promise<Envelope<Detail>>) => {
    const answer = await action.run(call)
    if (answer) changed(answer.data)
  }
  const move = (index: number, by: -1 | 1) => {
    if (!page) return
    const ids = page.components.map((component) => component.id)
    const [moved] = ids.splice(index, 1)
    ids.splice(index + by, 0, moved!)
    void mutate(() => api.put<Envelope<Detail>>(`${path}/components/order`, { componentIds: ids }))
    // Keyboard users keep their place: focus follows the moved row's same button.
    queueMicrotask(() =>
      document.getElementById(`component-${moved}-${by < 0 ? 'up' : 'down'}`)?.focus({ preventScroll: false }),
    )
  }
  const remove = async () => {
    setConfirmDelete(false)
    const answer = await action.run(() => api.del(path))
    if (answer !== undefined) route('/status-pages')
  }

  if (!page) {
    return (
      <section class="screen">
        <p>
          <a href="/status-pages">← Status pages</a>
        </p>
        {loaded.error ? <ErrorText error={loaded.error} retry={loaded.reload} /> : <Loading label="Loading page…" />}
      </section>
    )
  }

  const stateOf = (component: Component) =>
    candidates.data?.find((c) => c.kind === component.kind && c.id === component.subjectId)?.state ?? 'unknown'
  const onPage = new Set(page.components.map((component) => `${component.kind}:${component.subjectId}`))
  const available = (candidates.data ?? []).filter((candidate) => !onPage.has(`${candidate.kind}:${candidate.id}`))

  return (
    <section class="screen">
      <p>
        <a href="/status-pages">← Status pages</a>
      </p>
      <header class="page-head">
        <h1>{page.name}</h1>
        <div class="actions">
          {page.isPublic ? (
            <a class="button" href={`/status/${page.slug}`} target="_blank" rel="noreferrer">
              Open the public page
            </a>
          ) : null}
          <button type="button" class="danger" onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        </div>
      </header>
      {managed.has(page.id) && <ManagedWarning />}
      {action.error ? <ErrorText error={action.error} /> : null}

      <div class="editor">
        <div class="editor-main">
          <section class="card">
            <h2>Page</h2>
            <Form onSubmit={save} submitLabel="Save">
              <Field label="Name">
                {(id) => (
                  <input
                    id={id}
                    required
                    maxLength={100}
                    value={draft.name}
                    onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field label="Slug" hint="The address: /status/<slug>">
                {(id, describedBy) => (
                  <input
                    id={id}
                    aria-describedby={describedBy}
                    required
                    minLength={3}
                    maxLength={64}
                    value={draft.slug}
                    onInput={(e) => setDraft({ ...draft, slug: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field label="Description">
                {(id) => (
                  <textarea
                    id={id}
                    rows={2}
                    maxLength={2000}
                    value={draft.description}
                    onInput={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
                  />
                )}
              </Field>
              <label class="check">
                <input
                  type="checkbox"
                  checked={draft.isPublic}
                  onChange={(e) => setDraft({ ...draft, isPublic: e.currentTarget.checked })}
                />
                Public
              </label>
              <Field
                label="Automatic incidents"
                hint="Incidents Guard opens itself show a plain reason, never the probe's text. As drafts, they show once published from the incident's page."
              >
                {(id, describedBy) => (
                  <select
                    id={id}
                    aria-describedby={describedBy}
                    value={draft.automaticIncidents}
                    onChange={(e) =>
                      setDraft({
                        ...draft,
                        automaticIncidents: e.currentTarget.value as StatusPage['automaticIncidents'],
                      })
                    }
                  >
                    <option value="publish">Publish at once</option>
                    <option value="draft">Hold as drafts for review</option>
                  </select>
                )}
              </Field>
              <Field
                label="Language"
                hint="Of the public page, its history and incident pages, subscriber e-mails and feed. The preview shows the choice before saving; visitors may add ?lang= to a page's address."
              >
                {(id, describedBy) => (
                  <select
                    id={id}
                    aria-describedby={describedBy}
                    value={draft.locale}
                    onChange={(e) => setDraft({ ...draft, locale: e.currentTarget.value as Locale })}
                  >
                    {Object.entries(LOCALES).map(([code, name]) => (
                      <option key={code} value={code} lang={code}>
                        {name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </Form>
          </section>

          <StatusPageAccess path={path} />

          <section class="card">
            <h2>Components</h2>
            {page.components.length === 0 ? (
              <Empty title="No components yet">
                <p>Add the domains, services, heartbeats and devices visitors should see.</p>
              </Empty>
            ) : (
              <ol class="components">
                {page.components.map((component, index) => (
                  <li key={component.id}>
                    <StateDot state={stateOf(component)} />
                    <span class="component-name">{component.displayName}</span>
                    <span class="muted">{KIND_LABEL[component.kind]}</span>
                    <span class="component-actions">
                      <button
                        type="button"
                        id={`component-${component.id}-up`}
                        aria-label={`Move ${component.displayName} up`}
                        disabled={index === 0 || action.busy}
                        onClick={() => move(index, -1)}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        id={`component-${component.id}-down`}
                        aria-label={`Move ${component.displayName} down`}
                        disabled={index === page.components.length - 1 || action.busy}
                        onClick={() => move(index, 1)}
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        aria-label={`Remove ${component.displayName}`}
                        disabled={action.busy}
                        onClick={() =>
                          void mutate(() =>
                            api.del<Envelope<Detail>>(`${path}/components/${encodeURIComponent(component.id)}`),
                          )
                        }
                      >
                        Remove
                      </button>
                    </span>
                  </li>
                ))}
              </ol>
            )}
            {candidates.error ? <ErrorText error={candidates.error} retry={candidates.reload} /> : null}
            <AddComponent path={path} available={available} onAdded={changed} />
          </section>
          <StatusPageSubscribers path={path} components={page.components} />
        </div>

        <section class="card editor-preview" aria-label="Preview">
          <h2>Preview</h2>
          {page.isPublic ? (
            <iframe
              key={version}
              class="preview-frame"
              title={`Public page ${page.name}`}
              src={`/status/${page.slug}?lang=${draft.locale}&v=${version}`}
            />
          ) : (
            <DraftPreview draft={draft} components={page.components} stateOf={stateOf} />
          )}
        </section>
      </div>

      <Confirm
        open={confirmDelete}
        title={`Delete ${page.name}?`}
        message="Visitors of its address get a 404 from now on."
        confirmLabel="Delete page"
        onConfirm={remove}
        onClose={() => setConfirmDelete(false)}
      />
    </section>
  )
}

function AddComponent({
  path,
  available,
  onAdded,
}: {
  path: string
  available: Candidate[]
  onAdded: (page: Detail) => void
}) {
  const [choice, setChoice] = useState('')
  const [displayName, setDisplayName] = useState('')
  const submit = async () => {
    const [kind, id] = choice.split(':') as [Kind, string]
    const body: Record<string, string> = { [`${kind}Id`]: id }
    if (displayName.trim()) body.displayName = displayName.trim()
    const answer = await api.post<Envelope<Detail>>(`${path}/${kind}s`, body)
    setChoice('')
    setDisplayName('')
    onAdded(answer.data)
  }
  if (available.length === 0) return <p class="muted">Every domain, service, heartbeat and device is on this page.</p>
  return (
    <Form onSubmit={submit} submitLabel="Add component" busyLabel="Adding…">
      <Field label="Monitor">
        {(id) => (
          <select id={id} required value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
            <option value="">Choose…</option>
            {(['domain', 'service', 'heartbeat', 'device'] as const).map((kind) => {
              const items = available.filter((candidate) => candidate.kind === kind)
              return items.length === 0 ? null : (
                <optgroup key={kind} label={`${KIND_LABEL[kind]}s`}>
                  {items.map((item) => (
                    <option key={item.id} value={`${kind}:${item.id}`}>
                      {item.name}
                    </option>
                  ))}
                </optgroup>
              )
            })}
          </select>
        )}
      </Field>
      <Field label="Display name" hint="Optional; the monitor's name otherwise">
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            maxLength={100}
            value={displayName}
            onInput={(e) => setDisplayName(e.currentTarget.value)}
          />
        )}
      </Field>
    </Form>
  )
}

/** What a private page would show, drawn from the editor's state (its public address answers 404 until it is public). */
function DraftPreview({
  draft,
  components,
  stateOf,
}: {
  draft: { name: string; description: string }
  components: Component[]
  stateOf: (component: Component) => string
}) {
  const states = components.map(stateOf)
  const overall = states.some((state) => state === 'down')
    ? 'Some systems are down'
    : states.length > 0 && states.every((state) => state === 'up')
      ? 'All systems operational'
      : 'Status unknown'
  return (
    <div class="draft-preview">
      <p class="muted">This page is private: visitors get a 404. Below is what it will show once public.</p>
      <h3>{draft.name || 'Untitled page'}</h3>
      {draft.description ? <p>{draft.description}</p> : null}
      <p class="overall">{overall}</p>
      <ul>
        {components.map((component) => (
          <li key={component.id}>
            <StateDot state={stateOf(component)} /> {component.displayName}
          </li>
        ))}
      </ul>
    </div>
  )
}
