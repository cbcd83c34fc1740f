/**
 * A small inline line of recent values (SVG, no library), with a fixed size so rows never jump.
 * Values are spread evenly, or, given `span` (ms since the epoch, a time per value), placed on the
 * window's time axis: a monitor with one hour of checks then fills the last hour of "Last 24 h", not
 * the whole width. A lone value is a dot, so a new monitor's first bucket shows at once.
 */
export function Sparkline({
  values,
  span,
  width = 120,
  height = 28,
  label,
}: {
  values: Array<number | null>
  span?: { times: number[]; from: number; to: number }
  width?: number
  height?: number
  label: string
}) {
  const points = values.filter((value): value is number => value !== null)
  if (points.length === 0) {
    return (
      <svg class="sparkline" width={width} height={height} role="img" aria-label={`${label}: no data yet`}>
        <line x1="0" x2={width} y1={height - 2} y2={height - 2} class="sparkline-empty" />
      </svg>
    )
  }
  const max = Math.max(...points, 1)
  const step = width / Math.max(values.length - 1, 1)
  const xOf = (index: number) =>
    span ? ((span.times[index]! - span.from) / Math.max(span.to - span.from, 1)) * width : index * step
  const yOf = (value: number) => height - 2 - (value / max) * (height - 4)
  let path = ''
  let pen = false
  const dots: Array<{ x: number; y: number }> = []
  values.forEach((value, index) => {
    if (value === null) {
      pen = false
      return
    }
    const x = xOf(index)
    const y = yOf(value)
    const next = values[index + 1]
    // A value with no neighbour to draw a line to would be invisible: it gets a dot.
    if (!pen && (next === null || next === undefined)) dots.push({ x, y })
    path += `${pen ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`
    pen = true
  })
  return (
    <svg
      class="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      <path d={path} fill="none" />
      {dots.map((dot) => (
        <circle key={dot.x} cx={dot.x.toFixed(1)} cy={dot.y.toFixed(1)} r="2" />
      ))}
    </svg>
  )
}
