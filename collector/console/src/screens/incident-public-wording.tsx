import { useEffect, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import { Badge, ErrorText, Loading } from '../components/status.tsx'
import { useResource } from '../components/use-api.ts'

interface PublicWording {
  id: string
  title: string
  publicTitle: string | null
  automatic: boolean
  publishedAt: string | null
  updates: Array<{
    id: string
    status: string
    createdAt: string
    message: string
    publicMessage: string | null
    shown: string
  }>
}

/**
 * What public status pages show of the incident, and the operator's say over it: its public title,
 * the wording of each update (empty: the derived one, a plain reason, never the probe's text) and,
 * for pages holding automatic incidents as drafts, publishing it.
 */
export function IncidentPublicWording({ path, version }: { path: string; version: number }) {
  const wording = useResource(
    () => api.get<Envelope<PublicWording>>(`${path}/public`).then((body) => body.data),
    [path, version],
  )
  const [title, setTitle] = useState('')
  const [messages, setMessages] = useState<Record<string, string>>({})
  useEffect(() => {
    if (!wording.data) return
    setTitle(wording.data.publicTitle ?? '')
    setMessages(Object.fromEntries(wording.data.updates.map((update) => [update.id, update.publicMessage ?? ''])))
  }, [wording.data])

  if (!wording.data) {
    return (
      <section class="card" aria-labelledby="public-wording">
        <h2 id="public-wording">On status pages</h2>
        {wording.error ? (
          <ErrorText error={wording.error} retry={wording.reload} />
        ) : (
          <Loading label="Loading the public wording…" />
        )}
      </section>
    )
  }
  const w = wording.data
  const save = async (published?: boolean) => {
    await api.put(`${path}/public`, {
      publicTitle: title.trim() || null,
      ...(published === undefined ? {} : { published }),
      updates: w.updates.map((update) => ({ id: update.id, publicMessage: messages[update.id]?.trim() || null })),
    })
    wording.reload()
  }
  return (
    <section class="card" aria-labelledby="public-wording">
      <h2 id="public-wording">On status pages</h2>
      {w.automatic ? (
        <p>
          <Badge tone={w.publishedAt ? 'up' : 'neutral'}>{w.publishedAt ? 'Published' : 'Draft'}</Badge>{' '}
          <span class="muted">Pages holding automatic incidents as drafts show it once published.</span>
        </p>
      ) : null}
      <Form
        onSubmit={() => save()}
        submitLabel="Save public wording"
        actions={
          w.automatic ? (
            <button type="button" onClick={() => save(!w.publishedAt)}>
              {w.publishedAt ? 'Back to draft' : 'Save and publish'}
            </button>
          ) : null
        }
      >
        <Field
          label="Public title"
          hint={w.automatic ? 'Empty: what happened and the page’s names, e.g. “Outage: Website”' : 'Empty: the title'}
        >
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              maxLength={200}
              value={title}
              onInput={(e) => setTitle(e.currentTarget.value)}
            />
          )}
        </Field>
        {w.updates.map((update) => (
          <Field key={update.id} label={`Update “${update.status}”: shown as “${update.shown}”`} hint="Empty: as shown">
            {(id, describedBy) => (
              <textarea
                id={id}
                aria-describedby={describedBy}
                rows={2}
                maxLength={5000}
                placeholder={update.shown}
                value={messages[update.id] ?? ''}
                onInput={(e) => setMessages({ ...messages, [update.id]: e.currentTarget.value })}
              />
            )}
          </Field>
        ))}
      </Form>
    </section>
  )
}
