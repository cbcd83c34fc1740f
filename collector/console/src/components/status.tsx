import type { ComponentChildren } from 'preact'
import { ApiError } from '../api.ts'

/** A placeholder that keeps its room while data loads, so nothing jumps when it arrives. */
export function Loading({ label = 'Loading…', lines = 3 }: { label?: string; lines?: number }) {
  return (
    <div class="loading" role="status" aria-live="polite" style={{ minHeight: `${lines * 2.5}rem` }}>
      <span class="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children ? <div class="empty-body">{children}</div> : null}
    </div>
  )
}

/** The API's own message, in words, or the error's. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message
  if (error instanceof Error) return error.message
  return String(error)
}

export function ErrorText({ error, retry }: { error: unknown; retry?: () => void }) {
  if (!error) return null
  return (
    <div class="error" role="alert">
      <span>{messageOf(error)}</span>
      {retry ? (
        <button type="button" class="link" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  )
}

export type State = 'up' | 'down' | 'degraded' | 'unknown' | 'paused' | 'online' | 'offline' | string

const STATE_LABEL: Record<string, string> = {
  up: 'Up',
  down: 'Down',
  degraded: 'Degraded',
  unknown: 'Unknown',
  paused: 'Paused',
  online: 'Online',
  offline: 'Offline',
  pending: 'Pending',
}

/** A coloured dot with the state's name next to it (colour is never the only cue). */
export function StateDot({ state, label }: { state: State; label?: string }) {
  return (
    <span class={`state state-${state}`}>
      <span class="dot" aria-hidden="true" />
      {label ?? STATE_LABEL[state] ?? state}
    </span>
  )
}

export function Badge({ tone = 'neutral', children }: { tone?: string; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>
}
