import type { ComponentChildren, JSX } from 'preact'
import { useState } from 'preact/hooks'
import { ErrorText } from './status.tsx'

/**
 * A form that submits through `onSubmit` and shows the API's error above its fields. The fields
 * are the caller's controlled inputs, so nothing typed is lost when the server refuses it.
 */
export function Form({
  onSubmit,
  submitLabel,
  children,
  onCancel,
  busyLabel = 'Saving…',
}: {
  onSubmit: () => Promise<void>
  submitLabel: string
  children: ComponentChildren
  onCancel?: () => void
  busyLabel?: string
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const submit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    setBusy(true)
    setError(undefined)
    try {
      await onSubmit()
    } catch (caught) {
      setError(caught)
      queueMicrotask(() => (event.currentTarget?.querySelector('.error') as HTMLElement | null)?.focus())
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="form" onSubmit={submit} noValidate={false}>
      {error ? <ErrorText error={error} /> : null}
      {children}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  )
}

let fieldCounter = 0

/** A label, its input (given as a render function receiving the id) and an optional hint. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string
  hint?: string
  children: (id: string, describedBy: string | undefined) => ComponentChildren
}) {
  const [id] = useState(() => `field-${++fieldCounter}`)
  const hintId = hint ? `${id}-hint` : undefined
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id, hintId)}
      {hint ? (
        <small id={hintId} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  )
}
