import { useState } from 'preact/hooks'
import { api, type Envelope, withQuery } from '../api.ts'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { useResource } from '../components/use-api.ts'
import { useOrg } from '../org.ts'

/** The collector's sloView and sloDetail (services/slos/schemas.ts). */
interface Slo {
  id: string
  name: string
  subject: { kind: 'monitor' | 'group'; id: string; name: string }
  objective: number
  window: { type: 'rolling'; days: number } | { type: 'calendar-month' }
  burning: { severity: string; since: string; burnRate: number } | null
}
interface BurnDownDay {
  date: string
  badMinutes: number
  remainingMinutes: number
  remainingPercent: number
}
interface SloDetail extends Slo {
  status: {
    goodMinutes: number
    badMinutes: number
    sli: number | null
    budgetMinutes: number
    remainingMinutes: number
    remainingPercent: number
    burnRates: Record<'1h' | '6h' | '24h' | '3d', number | null>
    burnDown: BurnDownDay[]
  }
}

const windowText = (window: Slo['window']) =>
  window.type === 'rolling' ? `rolling ${window.days} days` : 'calendar month'
const fixed = (value: number | null, digits = 3) => (value === null ? '—' : value.toFixed(digits))

/** The budget left at the end of each day, 100 % at the top, 0 % as a dashed line. */
function BurnDownChart({ days }: { days: BurnDownDay[] }) {
  const width = 600
  const height = 160
  const low = Math.min(0, ...days.map((day) => day.remainingPercent))
  const y = (percent: number) => ((100 - percent) / (100 - low)) * height
  const x = (index: number) => (days.length <= 1 ? 0 : (index / (days.length - 1)) * width)
  const points = days.map((day, index) => `${x(index).toFixed(1)},${y(day.remainingPercent).toFixed(1)}`).join(' ')
  const last = days[days.length - 1]
  return (
    <figure class="card slo-chart" style={{ margin: '1rem 0 0' }}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Budget burn-down: ${last ? `${last.remainingPercent.toFixed(1)} % left on ${last.date}` : 'no day yet'}`}
        preserveAspectRatio="none"
        style={{ width: '100%', height: '160px' }}
      >
        <line x1="0" x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" stroke-dasharray="4 4" opacity="0.4" />
        <polyline points={points} fill="none" stroke="var(--accent, #2563eb)" stroke-width="2" />
      </svg>
      <figcaption class="muted">
        Error budget left at the end of each day, from {days[0]?.date ?? '—'} to {last?.date ?? '—'}
      </figcaption>
    </figure>
  )
}

function SloPanel({ id }: { id: string }) {
  const detail = useResource(() => api.get<Envelope<SloDetail>>(`/api/slos/${id}`).then((b) => b.data), [id])
  if (detail.error) return <ErrorText error={detail.error} retry={detail.reload} />
  if (!detail.data) return <Loading />
  const { status } = detail.data
  return (
    <section aria-labelledby="slo-panel-title" class="slo-panel">
      <h2 id="slo-panel-title">{detail.data.name}</h2>
      <div class="cards">
        <div class="card stat">
          <span class="stat-label">SLI</span>
          <span class="stat-value">{status.sli === null ? '—' : `${fixed(status.sli)} %`}</span>
          <span class="stat-sub">objective {detail.data.objective} %</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Budget left</span>
          <span class="stat-value">{status.remainingPercent.toFixed(1)} %</span>
          <span class="stat-sub">
            {fixed(status.remainingMinutes, 1)} of {fixed(status.budgetMinutes, 1)} min
          </span>
        </div>
        <div class="card stat">
          <span class="stat-label">Bad minutes</span>
          <span class="stat-value">{status.badMinutes}</span>
          <span class="stat-sub">{status.goodMinutes} good</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Burn rate 1 h / 6 h</span>
          <span class="stat-value">
            {fixed(status.burnRates['1h'], 1)} / {fixed(status.burnRates['6h'], 1)}
          </span>
          <span class="stat-sub">
            24 h {fixed(status.burnRates['24h'], 1)} · 3 d {fixed(status.burnRates['3d'], 1)}
          </span>
        </div>
      </div>
      <BurnDownChart days={status.burnDown} />
    </section>
  )
}

export default function Slos() {
  const { current } = useOrg()
  const list = useResource(() => api.get<Envelope<Slo[]>>('/api/slos').then((b) => b.data), [current.id])
  const [selected, setSelected] = useState<string | undefined>(undefined)
  const month = new Date().toISOString().slice(0, 7)
  const columns: Array<Column<Slo>> = [
    {
      header: 'SLO',
      cell: (slo) => (
        <button type="button" class="link" onClick={() => setSelected(slo.id)} aria-pressed={selected === slo.id}>
          {slo.name}
        </button>
      ),
    },
    { header: 'Subject', cell: (slo) => `${slo.subject.name} (${slo.subject.kind})` },
    { header: 'Objective', cell: (slo) => `${slo.objective} %`, align: 'right' },
    { header: 'Window', cell: (slo) => windowText(slo.window), secondary: true },
    {
      header: 'Burn alert',
      cell: (slo) => (slo.burning ? <span class="badge badge-down">{slo.burning.severity}</span> : 'none'),
    },
  ]
  return (
    <section aria-labelledby="slos-title">
      <div class="page-head">
        <h1 id="slos-title">SLOs</h1>
        <a
          class="button"
          href={withQuery('/api/reports/slos', { month, format: 'html' })}
          target="_blank"
          rel="noopener"
        >
          Monthly report
        </a>
      </div>
      {list.error ? (
        <ErrorText error={list.error} retry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.length === 0 ? (
        <Empty title="No SLO yet">Create one with POST /api/slos over a domain, a service or a group.</Empty>
      ) : (
        <Table rows={list.data} columns={columns} rowKey={(slo) => slo.id} caption="Service level objectives" />
      )}
      {(selected ?? list.data?.[0]?.id) && <SloPanel id={(selected ?? list.data?.[0]?.id)!} />}
    </section>
  )
}
