import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { ErrorText } from './status.tsx'

export type SubjectKind = 'domain' | 'service' | 'heartbeat' | 'device'

/** One monitor or device as `GET /api/monitors` answers it. */
export interface MonitorMatch {
  kind: SubjectKind
  id: string
  name: string
}

const SHOWN = 20

/**
 * A search box over `GET /api/monitors`: the server narrows the organization's monitors by name as
 * the operator types, so any of thousands can be picked (a `<select>` filled from a list stops at its
 * first page). Each match is a button; `exclude` hides what is already chosen.
 */
export function MonitorSearch({
  id,
  label,
  kinds,
  exclude = [],
  onPick,
}: {
  id: string
  label: string
  kinds?: SubjectKind[]
  exclude?: readonly string[]
  onPick: (match: MonitorMatch) => void
}) {
  const [text, setText] = useState('')
  const [matches, setMatches] = useState<MonitorMatch[] | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const generation = useRef(0)
  useEffect(() => {
    const mine = ++generation.current
    const timer = setTimeout(
      () => {
        api
          .get<Envelope<MonitorMatch[]>>('/api/monitors', {
            search: text.trim(),
            kind: kinds,
            limit: SHOWN + exclude.length,
          })
          .then((body) => {
            if (generation.current !== mine) return
            setMatches(body.data)
            setError(undefined)
          })
          .catch((caught: unknown) => {
            if (generation.current === mine) setError(caught)
          })
      },
      text ? 200 : 0,
    )
    return () => clearTimeout(timer)
  }, [text, kinds?.join(',')])
  const shown = (matches ?? []).filter((match) => !exclude.includes(match.id)).slice(0, SHOWN)
  return (
    <div class="monitor-search">
      <label for={id} style={{ display: 'block' }}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder="Type a name to search"
        autocomplete="off"
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <ErrorText error={error} />
      {matches === undefined ? null : shown.length === 0 ? (
        <p class="muted">Nothing matches “{text}”.</p>
      ) : (
        <ul aria-label={`${label}: matches`} style={{ listStyle: 'none', padding: 0, margin: '0.25rem 0' }}>
          {shown.map((match) => (
            <li key={`${match.kind}:${match.id}`}>
              <button type="button" class="link" onClick={() => onPick(match)}>
                {match.name} <span class="muted">({match.kind})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Names of monitors known by id (what a picker has already chosen), read in one request. */
export async function namesOf(ids: readonly string[]): Promise<Map<string, MonitorMatch>> {
  if (ids.length === 0) return new Map()
  const body = await api.get<Envelope<MonitorMatch[]>>('/api/monitors', { id: [...ids].slice(0, 200), limit: 200 })
  return new Map(body.data.map((match) => [match.id, match]))
}
