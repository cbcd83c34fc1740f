import { useState } from 'preact/hooks'

/** A value to copy (a token, a key, a command): selectable text plus a copy button that says when it worked. */
export function Secret({ label, value }: { label: string; value: string }) {
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
      <code class="secret-value" aria-label={label} tabIndex={0}>
        {value}
      </code>
      <button type="button" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
        Copy
      </button>
      <span class="muted" aria-live="polite">
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select the text and copy it' : ''}
      </span>
    </div>
  )
}
