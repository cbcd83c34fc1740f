import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Badge, Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'
import './screens.css'
import { ManagedBadge, useManagedByCode } from '../components/managed-by-code.tsx'

export interface StatusPage {
  id: string
  name: string
  slug: string
  description: string
  isPublic: boolean
  /** publish: automatic incidents show at once; draft: once published from the incident's page. */
  automaticIncidents: 'publish' | 'draft'
  /** The language visitors and subscribers read the page in. */
  locale: Locale
  componentCount: number
  createdAt: string
  updatedAt: string
}

/** The status page catalog's locales (collector services/status-pages/i18n), each named in itself. */
export const LOCALES = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  nl: 'Nederlands',
  pt: 'Português',
  ja: '日本語',
  ar: 'العربية',
} as const
export type Locale = keyof typeof LOCALES

/** A slug from a name: lowercase letters and digits joined by single hyphens, as the API wants. */
export const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '')

export default function StatusPages() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const [creating, setCreating] = useState(false)
  const pages = useResource(
    () => api.get<Envelope<StatusPage[]>>('/api/status-pages', { organizationId: current.id }).then((b) => b.data),
    [current.id],
  )
  return (
    <section class="screen">
      <header class="page-head">
        <h1>Status pages</h1>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New status page
          </button>
        </div>
      </header>
      {pages.error ? <ErrorText error={pages.error} retry={pages.reload} /> : null}
      {!pages.data ? (
        pages.error ? null : (
          <Loading label="Loading status pages…" />
        )
      ) : pages.data.length === 0 ? (
        <Empty title="No status pages yet">
          <p>A status page shows visitors the state of the domains, services and devices you choose.</p>
        </Empty>
      ) : (
        <Table
          caption="Status pages"
          rows={pages.data}
          rowKey={(page) => page.id}
          columns={[
            {
              header: 'Name',
              cell: (page) => (
                <>
                  <a href={`/status-pages/${encodeURIComponent(page.id)}`}>{page.name}</a>
                  {managed.has(page.id) && <ManagedBadge />}
                </>
              ),
            },
            {
              header: 'Address',
              cell: (page) =>
                page.isPublic ? (
                  <a href={`/status/${page.slug}`} target="_blank" rel="noreferrer">
                    /status/{page.slug}
                  </a>
                ) : (
                  <span class="muted">/status/{page.slug}</span>
                ),
            },
            {
              header: 'Visibility',
              cell: (page) => (
                <Badge tone={page.isPublic ? 'up' : 'neutral'}>{page.isPublic ? 'Public' : 'Private'}</Badge>
              ),
            },
            { header: 'Components', align: 'right', secondary: true, cell: (page) => page.componentCount },
            { header: 'Updated', secondary: true, cell: (page) => <Time value={page.updatedAt} /> },
          ]}
        />
      )}
      <CreateDialog open={creating} onClose={() => setCreating(false)} />
    </section>
  )
}

function CreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { current } = useOrg()
  const { route } = useLocation()
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  const [slugTouched, setSlugTouched] = useState(false)
  const [description, setDescription] = useState('')
  const [isPublic, setPublic] = useState(true)
  const submit = async () => {
    const answer = await api.post<Envelope<StatusPage>>(
      `/api/status-pages?organizationId=${encodeURIComponent(current.id)}`,
      { name, slug, description, isPublic },
    )
    route(`/status-pages/${encodeURIComponent(answer.data.id)}`)
  }
  return (
    <Dialog open={open} title="New status page" onClose={onClose}>
      <Form onSubmit={submit} submitLabel="Create" busyLabel="Creating…" onCancel={onClose} once>
        <Field label="Name">
          {(id) => (
            <input
              id={id}
              required
              maxLength={100}
              value={name}
              onInput={(event) => {
                setName(event.currentTarget.value)
                if (!slugTouched) setSlug(slugOf(event.currentTarget.value))
              }}
            />
          )}
        </Field>
        <Field label="Slug" hint="The page's address: /status/<slug>; lowercase letters, digits and hyphens">
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              required
              minLength={3}
              maxLength={64}
              pattern="[a-z0-9]+(-[a-z0-9]+)*"
              value={slug}
              onInput={(event) => {
                setSlugTouched(true)
                setSlug(event.currentTarget.value)
              }}
            />
          )}
        </Field>
        <Field label="Description">
          {(id) => (
            <textarea
              id={id}
              rows={2}
              maxLength={2000}
              value={description}
              onInput={(event) => setDescription(event.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.currentTarget.checked)} />
          Public (anyone with the address can see it)
        </label>
      </Form>
    </Dialog>
  )
}
