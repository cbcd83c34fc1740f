import type { JSX } from 'preact'

/**
 * A WAI-ARIA tab list: the selected tab is the one Tab stop, ←/→ (and Home/End) move between tabs
 * and select them. The panel is the caller's, with `id={panelId}` and `aria-labelledby={tabId(selected)}`.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  idPrefix,
}: {
  label: string
  tabs: ReadonlyArray<readonly [T, string]>
  selected: T
  onSelect: (value: T) => void
  idPrefix: string
}) {
  const keyDown = (event: JSX.TargetedKeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex(([value]) => value === selected)
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1
    if (next < 0) return
    event.preventDefault()
    const value = tabs[next]![0]
    onSelect(value)
    document.getElementById(`${idPrefix}-tab-${value}`)?.focus()
  }
  return (
    <div role="tablist" aria-label={label} class="tabs" onKeyDown={keyDown}>
      {tabs.map(([value, text]) => (
        <button
          key={value}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${value}`}
          aria-selected={selected === value}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={selected === value ? 0 : -1}
          onClick={() => onSelect(value)}
        >
          {text}
        </button>
      ))}
    </div>
  )
}
