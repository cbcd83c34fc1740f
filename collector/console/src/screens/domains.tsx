import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { HeartbeatBar, useRecentChecks } from '../components/heartbeat-bar.tsx'
import { FilterChoice, SearchField, STATE_OPTIONS } from '../components/list-controls.tsx'
import { ManagedBadge, useManagedByCode } from '../components/managed-by-code.tsx'
import { MonitorActions } from '../components/monitor.tsx'
import { Sparkline } from '../components/sparkline.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { TagChips, TagFilter, useTagFilter, useTags } from '../components/tags.tsx'
import { formatMs, formatPercent } from '../components/time.tsx'
import { usePolling, useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { type DomainItem, displayState, MONITOR_EVENTS, type Page, type TrendEntry } from '../monitors.ts'
import { useOrg } from '../org.ts'

const PAGE_SIZE = 20
const DAY_MS = 86_400_000
/** Checks per heartbeat bar of the list (a phone shows the newest half). */
const BEATS = 30

/** Reads and writes the list's filters in the address, so a filtered list can be shared and reloaded. */
function useQueryState(name: string): [string, (value: string) => void] {
  const location = useLocation()
  const value = location.query[name] ?? ''
  const set = (next: string) => {
    const params = new URLSearchParams(location.query as Record<string, string>)
    if (next) params.set(name, next)
    else params.delete(name)
    if (name !== 'page') params.delete('page')
    const search = params.toString()
    location.route(`${location.path}${search ? `?${search}` : ''}`, true)
  }
  return [value, set]
}

export default function Domains() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const [search, setSearch] = useQueryState('search')
  const [status, setStatus] = useQueryState('status')
  const [pageText, setPage] = useQueryState('page')
  const [tagFilter, setTagFilter] = useTagFilter()
  const known = useTags()
  const page = Math.max(1, Number(pageText) || 1)
  const [typed, setTyped] = useState(search)
  useEffect(() => {
    const timer = setTimeout(() => {
      if (typed !== search) setSearch(typed)
    }, 250)
    return () => clearTimeout(timer)
  }, [typed])

  const list = useResource(
    () => api.get<Page<DomainItem>>('/api/domains', { page, limit: PAGE_SIZE, search, status, tag: tagFilter }),
    [current.id, page, search, status, tagFilter.join('\n')],
  )
  const trend = useResource(
    () =>
      api
        .get<Envelope<TrendEntry[]>>('/api/domains/response-times', { range: '24h' })
        .then((body) => ({ at: Date.now(), byDomain: new Map(body.data.map((entry) => [entry.domainId, entry])) })),
    [current.id],
  )
  const beats = useRecentChecks(list.data?.data.map((domain) => domain.id) ?? [], BEATS, current.id)
  const trendTo = trend.data?.at ?? 0
  useLive(MONITOR_EVENTS, () => {
    list.reload()
    trend.reload()
    beats.reload()
  })
  // A check that changes no state sends no event: the bars follow new checks by reading again.
  usePolling(beats.reload, 30)

  const columns: Array<Column<DomainItem>> = [
    { header: 'State', cell: (domain) => <StateDot state={displayState(domain.status, domain.enabled)} /> },
    {
      header: 'Domain',
      cell: (domain) => (
        <div style={{ minWidth: '10rem' }}>
          <a href={`/domains/${domain.id}`}>{domain.name}</a>
          {managed.has(domain.id) && <ManagedBadge />}
          <br />
          <small class="muted" style={{ overflowWrap: 'anywhere' }}>
            {domain.status === 'down' && domain.lastError ? domain.lastError.message : domain.url}
          </small>
          <TagChips tags={domain.tags} colorOf={known.colorOf} />
        </div>
      ),
    },
    {
      header: 'Recent checks',
      cell: (domain) => (
        <HeartbeatBar
          checks={beats.data?.get(domain.id)?.checks}
          slots={BEATS}
          label={`Recent checks of ${domain.name}`}
        />
      ),
    },
    {
      header: 'Last 24 h',
      secondary: true,
      cell: (domain) => {
        const points = trend.data?.byDomain.get(domain.id)?.dataPoints ?? []
        return (
          <Sparkline
            label={`Response time of ${domain.name} over 24 hours`}
            values={points.map((point) => point.responseTime)}
            span={{ times: points.map((point) => Date.parse(point.timestamp)), from: trendTo - DAY_MS, to: trendTo }}
          />
        )
      },
    },
    { header: 'Uptime', align: 'right', cell: (domain) => formatPercent(domain.uptimePercentage) },
    { header: 'Response', align: 'right', secondary: true, cell: (domain) => formatMs(domain.responseTime) },
    {
      header: 'Actions',
      cell: (domain) => (
        <MonitorActions
          kind="domains"
          id={domain.id}
          name={domain.name}
          enabled={domain.enabled}
          onChanged={list.reload}
          inRow
        />
      ),
    },
  ]

  const data = list.data
  return (
    <section aria-labelledby="domains-title">
      <div class="page-head">
        <h1 id="domains-title">Domains</h1>
        <div class="actions">
          <a class="button" href="/domains/new">
            Add a domain
          </a>
        </div>
      </div>
      <div class="toolbar">
        <SearchField label="Search domains" placeholder="Search by name or URL" value={typed} onInput={setTyped} />
        <FilterChoice label="State" value={status} options={STATE_OPTIONS} onChange={setStatus} />
        <TagFilter label="Filter domains by tag" known={known.tags} selected={tagFilter} onChange={setTagFilter} />
      </div>
      <ErrorText error={list.error} retry={list.reload} />
      {data === undefined ? (
        list.error ? null : (
          <Loading lines={8} />
        )
      ) : data.data.length === 0 ? (
        search || status || tagFilter.length > 0 ? (
          <Empty title="No domain matches">Change the search, the state or the tag filter.</Empty>
        ) : (
          <Empty title="No domains yet">
            <a href="/domains/new">Add the first one</a>: Guard checks it from every location and tells you when it goes
            down.
          </Empty>
        )
      ) : (
        <>
          <Table caption="Domains" rows={data.data} columns={columns} rowKey={(domain) => domain.id} />
          {data.pagination.totalPages > 1 ? (
            <nav class="toolbar" aria-label="Pages" style={{ marginTop: '0.75rem' }}>
              <button type="button" disabled={page <= 1} onClick={() => setPage(String(page - 1))}>
                Previous
              </button>
              <span>
                Page {page} of {data.pagination.totalPages} ({data.pagination.total} domains)
              </span>
              <button
                type="button"
                disabled={page >= data.pagination.totalPages}
                onClick={() => setPage(String(page + 1))}
              >
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  )
}
