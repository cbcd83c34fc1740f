/** A small inline line of recent values (SVG, no library), with a fixed size so rows never jump. */
export function Sparkline({
  values,
  width = 120,
  height = 28,
  label,
}: {
  values: Array<number | null>
  width?: number
  height?: number
  label: string
}) {
  const points = values.filter((value): value is number => value !== null)
  if (points.length < 2) {
    return (
      <svg class="sparkline" width={width} height={height} role="img" aria-label={`${label}: no data yet`}>
        <line x1="0" x2={width} y1={height - 2} y2={height - 2} class="sparkline-empty" />
      </svg>
    )
  }
  const max = Math.max(...points, 1)
  const step = width / Math.max(values.length - 1, 1)
  let path = ''
  let pen = false
  values.forEach((value, index) => {
    if (value === null) {
      pen = false
      return
    }
    const x = (index * step).toFixed(1)
    const y = (height - 2 - (value / max) * (height - 4)).toFixed(1)
    path += `${pen ? 'L' : 'M'}${x} ${y}`
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
    </svg>
  )
}
