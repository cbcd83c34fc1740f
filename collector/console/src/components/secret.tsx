import { useState } from 'preact/hooks'

let counter = 0

/** A value to copy (a token, a key, a command): a read-only field plus a copy button that says when it worked. */
export function Secret({ label, value }: { label: string; value: string }) {
  const [id] = useState(() => `secret-${++counter}`)
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>(undefined)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied('yes')
    } catch {
      setCopied('no')
    }
  }
  return (
    <div class="secret">
      <label for={id}>{label}</label>
      <div class="secret-row">
        <input
          id={id}
          class="secret-value"
          readOnly
          value={value}
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </button>
      </div>
      <span class="muted" aria-live="polite">
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select the text and copy it' : ''}
      </span>
    </div>
  )
}
