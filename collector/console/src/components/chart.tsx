import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

export interface ChartSeries {
  label: string
  /**
   * One value per x: undefined where the series has no point at that x (another series has), which
   * the line crosses; null where it must break (no data there).
   */
  values: Array<number | null | undefined>
  color?: string
}

/** Seconds since the epoch, both ends included. */
export interface TimeWindow {
  from: number
  to: number
}

const legendTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e', '#9c36b5', '#e8590c', '#0c8599', '#c2255c', '#5c940d']

export const colorAt = (index: number): string => PALETTE[index % PALETTE.length]!

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return value || fallback
}

/**
 * A uPlot time chart with one line per series. `x` is in seconds since the epoch; uPlot shows it in
 * the browser's zone. With a `window` the x axis spans it whatever the data: a new monitor's single
 * point sits at the end of the chosen range instead of uPlot inventing years around it. It follows
 * its container's width and the colour scheme. The legend names the series and shows values only
 * under the cursor (empty values are hidden by CSS, so no "--" is left behind).
 */
export function Chart({
  x,
  series,
  height = 240,
  unit = 'ms',
  label,
  window,
}: {
  x: number[]
  series: ChartSeries[]
  height?: number
  unit?: string
  label: string
  window?: TimeWindow
}) {
  const container = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | undefined>(undefined)
  // Read by the scale's range at every setData, so a reload moves the window without a rebuild.
  const span = useRef(window)
  span.current = window
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
        { value: (_: uPlot, value: number | null) => (value === null ? '' : legendTime.format(value * 1000)) },
        ...series.map((item, index) => ({
          label: item.label,
          stroke: item.color ?? colorAt(index),
          width: 1.5,
          value: (_: uPlot, value: number | null | undefined) =>
            value === null || value === undefined ? '' : `${Math.round(value)} ${unit}`,
        })),
      ],
      axes: [
        { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
        {
          stroke: axis,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          // Room for the widest tick label: a few digits and the unit.
          size: Math.max(64, 44 + unit.length * 8),
          values: (_: uPlot, ticks: number[]) => ticks.map((tick) => `${tick} ${unit}`),
        },
      ],
      scales: {
        // Without a window uPlot's own range stays, which widens a lone point's empty span.
        x: span.current
          ? {
              time: true,
              range: (_: uPlot, min: number, max: number): uPlot.Range.MinMax =>
                span.current ? [span.current.from, span.current.to] : [min, max],
            }
          : { time: true },
        y: { range: (_: uPlot, min: number, max: number) => [0, Math.max(max * 1.1, min + 1, 10)] },
      },
      legend: { live: true },
      // The drawn x range on the element (seconds): what the browser tests assert the window against.
      hooks: {
        setScale: [
          (chart: uPlot, key: string) => {
            if (key === 'x') element.dataset.xRange = `${chart.scales.x?.min} ${chart.scales.x?.max}`
          },
        ],
      },
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
