import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { useOrg } from '../org.ts'
import { useResource } from './use-api.ts'
import './tags.css'

/** A tag in use in the organization, as `GET /api/tags` answers it. */
export interface TagInUse {
  tag: string
  key: string
  value: string | null
  color: string
  total: number
}

/** The organization's tags; a list draws its chips with their keys' colours. */
export function useTags() {
  const { current } = useOrg()
  const tags = useResource(() => api.get<Envelope<TagInUse[]>>('/api/tags').then((body) => body.data), [current.id])
  const colors = new Map((tags.data ?? []).map((tag) => [tag.key, tag.color]))
  return { tags: tags.data ?? [], colorOf: (tag: string) => colors.get(keyOf(tag)), reload: tags.reload }
}

const keyOf = (tag: string) => tag.split(':')[0]?.trim().toLowerCase() ?? tag

/** A subject's tags as chips; the colour sits in a band beside the text, so the text keeps its contrast. */
export function TagChips({
  tags,
  colorOf,
}: {
  tags: readonly string[] | undefined
  colorOf: (tag: string) => string | undefined
}) {
  if (!tags || tags.length === 0) return null
  return (
    <ul class="tags tag-chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} class="tag-chip" style={{ borderInlineStartColor: colorOf(tag) ?? 'currentColor' }}>
          {tag}
        </li>
      ))}
    </ul>
  )
}

/**
 * The list's tag filter, kept in the address as `?tag=a&tag=b` so it survives a reload; the list sends
 * the same `tag` parameters to the API, where every tag named must match.
 */
export function useTagFilter(): [string[], (tags: string[]) => void] {
  const location = useLocation()
  const params = new URLSearchParams(location.url.split('?')[1] ?? '')
  const selected = params.getAll('tag')
  const set = (next: string[]) => {
    const updated = new URLSearchParams(location.url.split('?')[1] ?? '')
    updated.delete('tag')
    updated.delete('page')
    for (const tag of next) updated.append('tag', tag)
    const search = updated.toString()
    location.route(`${location.path}${search ? `?${search}` : ''}`, true)
  }
  return [selected, set]
}

/** Type a tag (or pick one in use) and press Enter or Add; each one named narrows the list further. */
export function TagFilter({
  label,
  known,
  selected,
  onChange,
}: {
  label: string
  known: readonly TagInUse[]
  selected: readonly string[]
  onChange: (tags: string[]) => void
}) {
  const [typed, setTyped] = useState('')
  const listId = `tag-options-${label.replace(/\W+/g, '-').toLowerCase()}`
  const add = () => {
    const tag = typed.trim()
    if (tag && !selected.includes(tag)) onChange([...selected, tag])
    setTyped('')
  }
  const keys = [...new Set(known.map((tag) => tag.key))]
  return (
    <div class="tag-filter">
      <label>
        <span class="visually-hidden">{label}</span>
        <input
          type="text"
          list={listId}
          placeholder="Filter by tag (env:prod)"
          value={typed}
          onInput={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              add()
            }
          }}
        />
      </label>
      <datalist id={listId}>
        {[...keys, ...known.map((tag) => tag.tag).filter((tag) => !keys.includes(tag))].map((tag) => (
          <option key={tag} value={tag} />
        ))}
      </datalist>
      <button type="button" onClick={add} disabled={!typed.trim()}>
        Add tag filter
      </button>
      {selected.map((tag) => (
        <button
          key={tag}
          type="button"
          class="tag-chip tag-remove"
          onClick={() => onChange(selected.filter((t) => t !== tag))}
        >
          {tag} <span aria-hidden="true">×</span>
          <span class="visually-hidden">(remove this tag filter)</span>
        </button>
      ))}
    </div>
  )
}
