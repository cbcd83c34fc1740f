import { useEffect, useRef, useState } from 'preact/hooks'

/**
 * One event of the collector's stream (`GET /api/events/stream`): `type` is the SSE event name
 * (`monitor.down`, `incident.opened`, `notification.created`, …); `data` is the platform event's
 * facts, or the new notification itself.
 */
export interface LiveEvent {
  type: string
  id: string | undefined
  occurredAt: string | undefined
  data: Record<string, unknown>
}

type Handler = (event: LiveEvent) => void
export type LiveStatus = 'connecting' | 'open' | 'closed'

const handlers = new Map<Handler, Set<string>>()
const statusListeners = new Set<(status: LiveStatus) => void>()
let source: EventSource | undefined
let status: LiveStatus = 'closed'
let organization: string | undefined
const subscribedTypes = new Set<string>()

function setStatus(next: LiveStatus) {
  status = next
  for (const listener of statusListeners) listener(next)
}

function dispatch(message: MessageEvent<string>) {
  let event: LiveEvent
  try {
    const body = JSON.parse(message.data) as { v?: number; data?: Record<string, unknown>; occurredAt?: string }
    const envelope = body.v === 1 && typeof body.data === 'object'
    event = {
      type: message.type,
      id: message.lastEventId || undefined,
      occurredAt: envelope ? body.occurredAt : undefined,
      data: envelope ? (body.data as Record<string, unknown>) : (body as Record<string, unknown>),
    }
  } catch {
    return
  }
  for (const [handler, types] of handlers) {
    if (types.has(event.type) || types.has('*')) handler(event)
  }
}

function listen(type: string) {
  if (!source || subscribedTypes.has(type)) return
  subscribedTypes.add(type)
  source.addEventListener(type, dispatch as EventListener)
}

/**
 * Opens the tab's one EventSource for the organization. EventSource reconnects by itself and
 * sends Last-Event-ID, so events missed during a short break are replayed by the server.
 */
export function connectLive(organizationId: string | undefined): void {
  if (organization === organizationId && source) return
  source?.close()
  subscribedTypes.clear()
  organization = organizationId
  if (!organizationId) {
    source = undefined
    setStatus('closed')
    return
  }
  setStatus('connecting')
  source = new EventSource(`/api/events/stream?organizationId=${encodeURIComponent(organizationId)}`, {
    withCredentials: true,
  })
  source.onopen = () => setStatus('open')
  source.onerror = () => setStatus(source?.readyState === EventSource.CLOSED ? 'closed' : 'connecting')
  source.addEventListener('message', dispatch as EventListener)
  for (const types of handlers.values()) for (const type of types) listen(type)
}

/** Calls `handler` for every live event of one of `types` (`*` for all) while the component is mounted. */
export function useLive(types: string[], handler: Handler): void {
  const latest = useRef(handler)
  latest.current = handler
  const key = types.join(',')
  useEffect(() => {
    const wrapped: Handler = (event) => latest.current(event)
    const set = new Set(key.split(','))
    handlers.set(wrapped, set)
    for (const type of set) listen(type)
    return () => {
      handlers.delete(wrapped)
    }
  }, [key])
}

/** The connection's state, for the shell's indicator. */
export function useLiveStatus(): LiveStatus {
  const [value, setValue] = useState(status)
  useEffect(() => {
    statusListeners.add(setValue)
    setValue(status)
    return () => {
      statusListeners.delete(setValue)
    }
  }, [])
  return value
}
