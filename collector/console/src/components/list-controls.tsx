/** The search box of a list: labelled for screen readers, growing to the toolbar's width. */
export function SearchField({
  label,
  placeholder,
  value,
  onInput,
}: {
  label: string
  placeholder: string
  value: string
  onInput: (value: string) => void
}) {
  return (
    <label class="grow">
      <span class="visually-hidden">{label}</span>
      <input
        type="search"
        placeholder={placeholder}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
        style={{ width: '100%' }}
      />
    </label>
  )
}

/** A filter of a list as a labelled select; options are `[value, label]`, the first one meaning "all". */
export function FilterChoice({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: string
  options: ReadonlyArray<readonly [string, string]>
  onChange: (value: string) => void
}) {
  return (
    <label>
      <span class="visually-hidden">{label}</span>
      <select value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
}

export const STATE_OPTIONS = [
  ['', 'Every state'],
  ['down', 'Down'],
  ['up', 'Up'],
  ['unknown', 'Unknown'],
] as const
