import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

export interface ChartSeries {
  label: string
  /** One value per x, null where the series has no point. */
  values: Array<number | null>
  color?: string
}

const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e', '#9c36b5', '#e8590c', '#0c8599', '#c2255c', '#5c940d']

export const colorAt = (index: number): string => PALETTE[index % PALETTE.length]!

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return value || fallback
}

/**
 * A uPlot time chart with one line per series. `x` is in seconds since the epoch; uPlot shows it in
 * the browser's zone. It follows its container's width and the colour scheme.
 */
export function Chart({
  x,
  series,
  height = 240,
  unit = 'ms',
  label,
}: {
  x: number[]
  series: ChartSeries[]
  height?: number
  unit?: string
  label: string
}) {
  const container = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | undefined>(undefined)
  const shape = series.map((item) => item.label).join('\u0000')

  useEffect(() => {
    const element = container.current
    if (!element) return
    const axis = cssVar('--muted', '#666')
    const grid = cssVar('--border', '#ddd')
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      series: [
        {},
        ...series.map((item, index) => ({
          label: item.label,
          stroke: item.color ?? colorAt(index),
          width: 1.5,
          spanGaps: false,
          value: (_: uPlot, value: number | null) => (value === null ? '—' : `${Math.round(value)} ${unit}`),
        })),
      ],
      axes: [
        { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
        {
          stroke: axis,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          // Room for the widest tick label: a few digits and the unit.
          size: Math.max(56, 36 + unit.length * 8),
          values: (_: uPlot, ticks: number[]) => ticks.map((tick) => `${tick} ${unit}`),
        },
      ],
      scales: { y: { range: (_: uPlot, min: number, max: number) => [0, Math.max(max * 1.1, min + 1, 10)] } },
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
    }
    const created = new uPlot(options, [x, ...series.map((item) => item.values)] as uPlot.AlignedData, element)
    plot.current = created
    const resize = new ResizeObserver(() => created.setSize({ width: Math.max(element.clientWidth, 200), height }))
    resize.observe(element)
    const scheme = matchMedia('(prefers-color-scheme: dark)')
    const redraw = () => created.redraw(false)
    scheme.addEventListener('change', redraw)
    return () => {
      resize.disconnect()
      scheme.removeEventListener('change', redraw)
      created.destroy()
      plot.current = undefined
    }
    // The chart is rebuilt only when its series change; new data goes through setData below.
  }, [shape, height, unit])

  useEffect(() => {
    plot.current?.setData([x, ...series.map((item) => item.values)] as uPlot.AlignedData)
  }, [x, series])

  return <div class="chart" ref={container} role="img" aria-label={label} style={{ minHeight: `${height + 40}px` }} />
}
