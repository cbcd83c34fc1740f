const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

export function formatDateTime(value: string | number | Date): string {
  return full.format(new Date(value))
}

export function formatRelative(value: string | number | Date, now = Date.now()): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000)
  const abs = Math.abs(seconds)
  if (abs < 60) return relative.format(seconds, 'second')
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute')
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour')
  return relative.format(Math.round(seconds / 86_400), 'day')
}

/** A timestamp in the browser's time zone; the exact time is in the tooltip and the datetime attribute. */
export function Time({
  value,
  mode = 'relative',
}: {
  value: string | number | Date | null | undefined
  mode?: 'relative' | 'full'
}) {
  if (value === null || value === undefined || value === '') return <span class="muted">—</span>
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return <span class="muted">—</span>
  return (
    <time dateTime={date.toISOString()} title={full.format(date)}>
      {mode === 'full' ? full.format(date) : formatRelative(date)}
    </time>
  )
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`
  return `${(seconds / 86_400).toFixed(1)} d`
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—'
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`
}

export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  return `${value >= 99.995 ? '100' : value.toFixed(2)} %`
}
