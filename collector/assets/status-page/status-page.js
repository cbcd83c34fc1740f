// Draws one latency chart per component from the series embedded in the page: one line per
// probe location, x in seconds, gaps where a location has no point.
;(() => {
  const embedded = document.getElementById('latency-data')
  const data = JSON.parse(embedded.textContent)
  // The time axis in the page's time zone, like the times written in the page.
  const zone = embedded.dataset.timezone || 'UTC'
  // The series cover the day (24 h) before the page was made: the axis spans them, so a component
  // with one point shows it at its hour instead of an axis uPlot stretches over years.
  const until = Date.parse(embedded.dataset.until) / 1000 || Date.now() / 1000
  const DAY = 86_400
  const palette = ['#0969da', '#bf3989', '#1a7f37', '#9a6700', '#8250df', '#cf222e', '#0a3069', '#57606a']
  const charts = []
  for (const element of document.querySelectorAll('.chart[data-component]')) {
    const locations = data[Number(element.dataset.component)] || []
    const times = [...new Set(locations.flatMap((l) => l.points.map((p) => Date.parse(p.t) / 1000)))].sort(
      (a, b) => a - b,
    )
    if (times.length === 0) continue
    const columns = locations.map((l) => {
      const byTime = new Map(l.points.map((p) => [Date.parse(p.t) / 1000, p.avg]))
      return times.map((t) => (byTime.has(t) ? byTime.get(t) : null))
    })
    // Canvas text does not follow CSS, so the axes take the page's text colour explicitly.
    const ink = getComputedStyle(element).color
    const options = {
      width: element.clientWidth || 320,
      height: 160,
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), zone),
      // uPlot widens a single value's range by itself (to years on a time axis): the range is set here.
      scales: { x: { time: true, range: () => [Math.min(times[0], until - DAY), Math.max(times.at(-1), until)] } },
      hooks: {
        // What the drawn axis spans, readable without decoding the canvas.
        setScale: [
          (u, key) =>
            key === 'x' &&
            element.setAttribute('data-hours', String(Math.round((u.scales.x.max - u.scales.x.min) / 3600))),
        ],
      },
      series: [
        {},
        ...locations.map((l, i) => ({
          label: l.location,
          stroke: palette[i % palette.length],
          width: 2,
          spanGaps: false,
          value: (_u, v) => (v == null ? '-' : `${Math.round(v)} ms`),
        })),
      ],
      axes: [
        { stroke: ink, grid: { stroke: 'rgba(128,128,128,0.2)' } },
        {
          stroke: ink,
          size: 64,
          grid: { stroke: 'rgba(128,128,128,0.2)' },
          values: (_u, ticks) => ticks.map((v) => `${v} ms`),
        },
      ],
    }
    element.setAttribute('data-series', String(locations.length))
    charts.push([element, new uPlot(options, [times, ...columns], element)])
  }
  window.addEventListener('resize', () => {
    for (const [element, chart] of charts) chart.setSize({ width: element.clientWidth, height: 160 })
  })
})()
