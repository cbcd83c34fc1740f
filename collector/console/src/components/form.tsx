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
  once = false,
  actions,
}: {
  onSubmit: () => Promise<void>
  submitLabel: string
  children: ComponentChildren
  onCancel?: () => void
  busyLabel?: string
  /**
   * The form is done once it succeeds (it navigates away or closes): its buttons stay disabled
   * until it is gone, since the next screen may take a moment to load and a second click there
   * would create a twin.
   */
  once?: boolean
  /** More buttons beside submit and cancel (type="button"), e.g. a dry run. */
  actions?: ComponentChildren
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
      if (!once) setBusy(false)
    } catch (caught) {
      setBusy(false)
      setError(caught)
      queueMicrotask(() => (event.currentTarget?.querySelector('.error') as HTMLElement | null)?.focus())
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
        {actions}
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
