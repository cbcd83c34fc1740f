import { useMemo, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { HeartbeatBar, latencies, useRecentChecks } from '../components/heartbeat-bar.tsx'
import { FilterChoice, SearchField, STATE_OPTIONS } from '../components/list-controls.tsx'
import { ManagedBadge, useManagedByCode } from '../components/managed-by-code.tsx'
import { MonitorActions } from '../components/monitor.tsx'
import { Sparkline } from '../components/sparkline.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { TagChips, TagFilter, useTagFilter, useTags } from '../components/tags.tsx'
import { formatPercent, Time } from '../components/time.tsx'
import { usePolling, useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { displayState, MONITOR_EVENTS, type ServiceItem, STATE_ORDER } from '../monitors.ts'
import { useOrg } from '../org.ts'
import { useProtocols } from './protocol-fields.tsx'

/** Checks per heartbeat bar and sparkline of the list (a phone shows the newest half of the bar). */
const BEATS = 30

const target = (service: ServiceItem) => {
  const { host, port, path } = service.protocolConfig
  return `${host}${port ? `:${port}` : ''}${path ?? ''}`
}

const BUILT_IN = ['http', 'https', 'tcp', 'dns', 'tls', 'icmp'].map((kind) => ({ kind, label: kind.toUpperCase() }))

export default function Services() {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState('')
  const [protocol, setProtocol] = useState('')
  const protocols = useProtocols()
  const [tagFilter, setTagFilter] = useTagFilter()
  const known = useTags()
  const list = useResource(
    () =>
      api
        .get<Envelope<ServiceItem[]>>('/api/services', { organizationId: current.id, tag: tagFilter })
        .then((body) => body.data),
    [current.id, tagFilter.join('\n')],
  )
  const recent = useRecentChecks(list.data?.map((service) => service.id) ?? [], BEATS, current.id)
  useLive(MONITOR_EVENTS, () => {
    list.reload()
    recent.reload()
  })
  // A check that changes no state sends no event: the bars follow new checks by reading again.
  usePolling(recent.reload, 30)

  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase()
    return (list.data ?? [])
      .filter((service) => !needle || `${service.name} ${target(service)}`.toLowerCase().includes(needle))
      .filter((service) => !status || displayState(service.status, service.enabled) === status)
      .filter((service) => !protocol || service.protocol === protocol)
      .sort((a, b) => (STATE_ORDER[a.status] ?? 3) - (STATE_ORDER[b.status] ?? 3) || a.name.localeCompare(b.name))
  }, [list.data, search, status, protocol])

  const columns: Array<Column<ServiceItem>> = [
    { header: 'State', cell: (service) => <StateDot state={displayState(service.status, service.enabled)} /> },
    {
      header: 'Service',
      cell: (service) => (
        <div style={{ minWidth: '10rem' }}>
          <a href={`/services/${service.id}`}>{service.name}</a>
          {managed.has(service.id) && <ManagedBadge />}
          <br />
          <small class="muted" style={{ overflowWrap: 'anywhere' }}>
            {service.protocol.toUpperCase()} {target(service)}
            {service.status === 'down' && service.lastError ? ` — ${service.lastError.message}` : ''}
          </small>
          <TagChips tags={service.tags} colorOf={known.colorOf} />
        </div>
      ),
    },
    {
      header: 'Recent checks',
      cell: (service) => (
        <HeartbeatBar
          checks={recent.data?.get(service.id)?.checks}
          slots={BEATS}
          label={`Recent checks of ${service.name}`}
        />
      ),
    },
    {
      header: 'Response time',
      secondary: true,
      cell: (service) => {
        const checks = recent.data?.get(service.id)?.checks
        return (
          <Sparkline
            label={`Response time of ${service.name} over its last ${checks?.length ?? 0} checks`}
            values={latencies(checks)}
          />
        )
      },
    },
    {
      header: 'Uptime (24 h)',
      align: 'right',
      cell: (service) => formatPercent(recent.data?.get(service.id)?.uptime24h ?? null),
    },
    { header: 'Last check', secondary: true, cell: (service) => <Time value={service.lastCheck} /> },
    {
      header: 'Actions',
      cell: (service) => (
        <MonitorActions
          kind="services"
          id={service.id}
          name={service.name}
          enabled={service.enabled}
          onChanged={list.reload}
          inRow
        />
      ),
    },
  ]

  return (
    <section aria-labelledby="services-title">
      <div class="page-head">
        <h1 id="services-title">Services</h1>
        <div class="actions">
          <a class="button" href="/services/new">
            Add a service
          </a>
        </div>
      </div>
      <div class="toolbar">
        <SearchField label="Search services" placeholder="Search by name or host" value={search} onInput={setSearch} />
        <FilterChoice
          label="State"
          value={status}
          options={[...STATE_OPTIONS, ['paused', 'Paused']]}
          onChange={setStatus}
        />
        <FilterChoice
          label="Protocol"
          value={protocol}
          options={[
            ['', 'Every protocol'],
            ...(protocols.data ?? BUILT_IN).map((choice) => [choice.kind, choice.label] as const),
          ]}
          onChange={setProtocol}
        />
        <TagFilter label="Filter services by tag" known={known.tags} selected={tagFilter} onChange={setTagFilter} />
      </div>
      <ErrorText error={list.error} retry={list.reload} />
      {list.data === undefined ? (
        list.error ? null : (
          <Loading lines={8} />
        )
      ) : list.data.length === 0 ? (
        <Empty title="No services yet">
          <a href="/services/new">Add one</a>: TCP ports, DNS records, TLS certificates, ping and HTTP endpoints.
        </Empty>
      ) : rows.length === 0 ? (
        <Empty title="No service matches">Change the search or the filters.</Empty>
      ) : (
        <Table caption="Services" rows={rows} columns={columns} rowKey={(service) => service.id} />
      )}
    </section>
  )
}
