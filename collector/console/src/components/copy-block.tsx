import { useEffect, useRef, useState } from 'preact/hooks'
import './copy-block.css'

let counter = 0

/** Puts the block's text on the clipboard the old way, from a selection, where the async clipboard is missing. */
function copyBySelection(element: HTMLElement | null): boolean {
  const selection = window.getSelection()
  if (!element || !selection) return false
  const range = document.createRange()
  range.selectNodeContents(element)
  selection.removeAllRanges()
  selection.addRange(range)
  try {
    return document.execCommand('copy')
  } catch {
    return false
  }
}

/**
 * A command (or a file) to paste elsewhere: shown whole, wrapped rather than cut, in a block a
 * person can read before running it, with a Copy button that says whether it worked. Where the
 * browser offers no clipboard (plain http on another host, permission refused) the text is selected
 * so Ctrl+C takes it.
 */
export function CopyBlock({ label, value }: { label: string; value: string }) {
  const [id] = useState(() => `copy-block-${++counter}`)
  // Kept with the text it was for: a new value (a regenerated token) has not been copied yet.
  const [copied, setCopied] = useState<{ value: string; how: 'yes' | 'selected' } | undefined>(undefined)
  const state = copied?.value === value ? copied.how : undefined
  const block = useRef<HTMLPreElement>(null)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(undefined), 4000)
    return () => clearTimeout(timer)
  }, [copied])

  const copy = async () => {
    try {
      // navigator.clipboard is undefined outside a secure context: the call throws and the fallback runs.
      await navigator.clipboard.writeText(value)
      setCopied({ value, how: 'yes' })
    } catch {
      setCopied({ value, how: copyBySelection(block.current) ? 'yes' : 'selected' })
    }
  }
  return (
    <section class="copy-block" aria-labelledby={id}>
      <div class="copy-block-head">
        <span id={id} class="copy-block-label">
          {label}
        </span>
        <button type="button" class="copy-block-button" onClick={copy}>
          {state === 'yes' ? 'Copied' : 'Copy'}
          <span class="visually-hidden"> {label.toLowerCase()}</span>
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must take focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable) */}
      <pre ref={block} tabIndex={0} data-copied={state === 'yes' ? '' : undefined}>
        <code>{value}</code>
      </pre>
      <span class="copy-block-status muted" role="status">
        {state === 'yes'
          ? `${label} copied to the clipboard`
          : state === 'selected'
            ? 'This browser does not allow copying here: the text is selected, press Ctrl+C (⌘C on a Mac)'
            : ''}
      </span>
    </section>
  )
}
