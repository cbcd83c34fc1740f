import { api, type Envelope } from '../api.ts'
import { useResource } from './use-api.ts'

/** The ids of the objects an apply of guard.yaml manages (GET /api/config/managed). */
export function useManagedByCode(organizationId: string): Set<string> {
  const managed = useResource(
    async () =>
      new Set(
        (await api.get<Envelope<Array<{ objectId: string }>>>('/api/config/managed')).data.map((item) => item.objectId),
      ),
    [organizationId],
  )
  return managed.data ?? new Set()
}

export function ManagedBadge() {
  return (
    <small class="muted" title="Created or adopted by guard apply: change it in guard.yaml">
      {' '}
      · managed by code
    </small>
  )
}

/** Above an edit form: a change here is undone by the next apply of the file. */
export function ManagedWarning() {
  return (
    <p role="note" class="muted">
      This object is managed by code (guard.yaml): a change made here is undone by the next <code>guard apply</code>.
    </p>
  )
}
