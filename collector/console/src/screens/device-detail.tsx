import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { Chart, type ChartSeries } from '../components/chart.tsx'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Badge, Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Tabs } from '../components/tabs.tsx'
import { formatDuration, Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import type { DeviceDetail as Device, ThresholdKind } from '../types.ts'
import { healthTone } from '../types.ts'
import { useAction } from '../use-action.ts'
import { AgentInstructions, DeviceState, isWaiting } from './devices.tsx'
import './screens.css'

interface Metric {
  type: 'cpu' | 'memory' | 'disk' | 'network'
  name: string
  value: number
  unit: string
  timestamp: string
}
interface Process {
  pid: number
  name: string
  command: string
  cpuPercent: number
  memoryMB: number
  status: string
  user: string
}
interface Application {
  name: string
  version: string
  publisher: string
  installPath: string
  size: number
  isRunning: boolean
}
interface Connection {
  localAddress: string
  localPort: number
  remoteAddress: string | null
  remotePort: number | null
  protocol: string
  status: string
  processName: string
}

const RANGES = ['1h', '6h', '24h', '7d', '30d'] as const
type Range = (typeof RANGES)[number]

/** Which metric names each chart draws, and how their values read. */
const CHARTS: Array<{
  type: Metric['type']
  title: string
  unit: string
  pick: (name: string) => string | undefined
  scale?: number
}> = [
  { type: 'cpu', title: 'CPU', unit: '%', pick: (name) => (name === 'usage' ? 'usage' : undefined) },
  { type: 'memory', title: 'Memory', unit: '%', pick: (name) => (name === 'usage' ? 'used' : undefined) },
  {
    type: 'disk',
    title: 'Disk',
    unit: '%',
    pick: (name) => (name === 'usage' ? 'all disks' : name.startsWith('fs:') ? name.slice(3) : undefined),
  },
  {
    type: 'network',
    title: 'Network',
    unit: 'kB/s',
    scale: 1 / 1000,
    pick: (name) => (name === 'rx' ? 'received' : name === 'tx' ? 'sent' : undefined),
  },
]

const bytes = (value: number | null | undefined) => {
  if (value === null || value === undefined) return '—'
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let size = value
  let unit = 0
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024
    unit += 1
  }
  return `${size.toFixed(size >= 10 || unit === 0 ? 0 : 1)} ${units[unit]}`
}

/** Rows of one metric type (newest first) as aligned chart columns, oldest first. */
export function toSeries(
  rows: Metric[],
  pick: (name: string) => string | undefined,
  scale = 1,
): { x: number[]; series: ChartSeries[] } {
  const times = new Map<number, Map<string, number>>()
  const labels: string[] = []
  for (const row of rows) {
    const label = pick(row.name)
    if (!label) continue
    if (!labels.includes(label)) labels.push(label)
    const t = Math.floor(Date.parse(row.timestamp) / 1000)
    let at = times.get(t)
    if (!at) {
      at = new Map()
      times.set(t, at)
    }
    at.set(label, row.value * scale)
  }
  const x = [...times.keys()].sort((a, b) => a - b)
  return {
    x,
    series: labels.map((label) => ({ label, values: x.map((t) => times.get(t)?.get(label) ?? null) })),
  }
}

export default function DeviceDetail() {
  const { params } = useRoute()
  const { route } = useLocation()
  const id = params.id ?? ''
  const path = `/api/devices/${encodeURIComponent(id)}`
  const device = useResource(() => api.get<Envelope<Device>>(path).then((body) => body.data), [path])
  const [range, setRange] = useState<Range>('1h')
  const [tick, setTick] = useState(0)
  const [confirm, setConfirm] = useState<'regenerate' | 'delete' | undefined>(undefined)
  const [token, setToken] = useState<string | undefined>(undefined)
  const [editing, setEditing] = useState(false)
  const action = useAction()

  useLive(['device.online', 'device.offline', 'device.health'], (event) => {
    if (event.data.deviceId === id) device.reload()
  })
  // Metrics have no event of their own: they are read again at the agent's pace.
  const every = Math.max(device.data?.heartbeatInterval ?? 30, 10)
  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), every * 1000)
    return () => clearInterval(timer)
  }, [every])

  const regenerate = async () => {
    setConfirm(undefined)
    const answer = await action.run(() => api.post<Envelope<{ token: string }>>(`${path}/regenerate-token`))
    if (answer) {
      setToken(answer.data.token)
      device.reload()
    }
  }
  const remove = async () => {
    setConfirm(undefined)
    const answer = await action.run(() => api.del(path))
    if (answer !== undefined) route('/devices')
  }

  if (!device.data) {
    return (
      <section class="screen">
        <p>
          <a href="/devices">← Devices</a>
        </p>
        {device.error ? <ErrorText error={device.error} retry={device.reload} /> : <Loading label="Loading device…" />}
      </section>
    )
  }
  const d = device.data
  return (
    <section class="screen">
      <p>
        <a href="/devices">← Devices</a>
      </p>
      <header class="page-head">
        <h1>{d.name}</h1>
        <DeviceState device={d} />
        {isWaiting(d) ? null : <Badge tone={healthTone[d.healthStatus] ?? 'neutral'}>{d.healthStatus}</Badge>}
        <div class="actions">
          <button type="button" onClick={() => setEditing(true)}>
            Settings
          </button>
          <button type="button" onClick={() => setConfirm('regenerate')} disabled={action.busy}>
            Regenerate token
          </button>
          <button type="button" class="danger" onClick={() => setConfirm('delete')} disabled={action.busy}>
            Delete
          </button>
        </div>
      </header>
      {action.error ? <ErrorText error={action.error} /> : null}

      <dl class="facts">
        <Fact label="Host">{d.hostname ?? '—'}</Fact>
        <Fact label="Operating system">{[d.os ?? d.platform, d.architecture].filter(Boolean).join(' · ') || '—'}</Fact>
        <Fact label="CPU">{d.cpu ? `${d.cpu}${d.cpuCores ? ` (${d.cpuCores} cores)` : ''}` : '—'}</Fact>
        <Fact label="Memory">{bytes(d.totalMemory)}</Fact>
        <Fact label="Disk">{bytes(d.totalDisk)}</Fact>
        <Fact label="Uptime">{d.uptimeSeconds === null ? '—' : formatDuration(d.uptimeSeconds)}</Fact>
        <Fact label="Agent">{d.agentVersion ?? 'not connected yet'}</Fact>
        <Fact label="Last seen">
          <Time value={d.lastSeen} />
        </Fact>
        <Fact label="Token">
          <code>{d.tokenPrefix}…</code>
        </Fact>
      </dl>
      {isWaiting(d) ? (
        <Empty title="Waiting for first heartbeat">
          <p>
            Start the agent on the machine with the commands shown when this device was enrolled; its metrics appear
            here within a minute. Lost them? A new token comes with the commands for this device (no second device is
            created).
          </p>
          <button type="button" onClick={() => setConfirm('regenerate')} disabled={action.busy}>
            New token and commands
          </button>
        </Empty>
      ) : null}

      <h2>Metrics</h2>
      <fieldset class="toolbar tabs">
        <legend class="visually-hidden">Time range</legend>
        {RANGES.map((value) => (
          <button
            key={value}
            type="button"
            class={value === range ? 'selected' : ''}
            aria-pressed={value === range}
            onClick={() => setRange(value)}
          >
            {value}
          </button>
        ))}
      </fieldset>
      <div class="chart-grid">
        {CHARTS.map((chart) => (
          <MetricChart key={chart.type} path={path} range={range} tick={tick} chart={chart} />
        ))}
      </div>

      <Inventory path={path} tick={tick} />

      <Confirm
        open={confirm === 'regenerate'}
        title="Regenerate the agent token?"
        message="The current token stops working at once; the agent needs the new one to keep reporting."
        confirmLabel="Regenerate"
        onConfirm={regenerate}
        onClose={() => setConfirm(undefined)}
      />
      <Confirm
        open={confirm === 'delete'}
        title={`Delete ${d.name}?`}
        message="The device, its token and its inventory are removed; its agent is refused from now on."
        confirmLabel="Delete device"
        onConfirm={remove}
        onClose={() => setConfirm(undefined)}
      />
      <Dialog open={editing} title={`Settings of ${d.name}`} onClose={() => setEditing(false)}>
        <DeviceSettings
          device={d}
          path={path}
          onSaved={() => {
            setEditing(false)
            device.reload()
          }}
          onCancel={() => setEditing(false)}
        />
      </Dialog>
      <Dialog open={token !== undefined} title="New agent token" onClose={() => setToken(undefined)}>
        {token ? <AgentInstructions device={d} token={token} onDone={() => setToken(undefined)} /> : null}
      </Dialog>
    </section>
  )
}

function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

const THRESHOLD_KINDS: Array<[ThresholdKind, string]> = [
  ['cpu', 'CPU'],
  ['memory', 'Memory'],
  ['disk', 'Disk'],
]

/** Name, tags and the usage levels at which the device turns warning or critical. */
function DeviceSettings({
  device,
  path,
  onSaved,
  onCancel,
}: {
  device: Device
  path: string
  onSaved: () => void
  onCancel: () => void
}) {
  const [name, setName] = useState(device.name)
  const [tags, setTags] = useState(device.tags.join(', '))
  const [levels, setLevels] = useState(() =>
    Object.fromEntries(
      THRESHOLD_KINDS.map(([kind]) => [
        kind,
        {
          warning: String(device.thresholds[kind].warning),
          critical: String(device.thresholds[kind].critical),
          holdSeconds: String(device.thresholds[kind].holdSeconds),
        },
      ]),
    ),
  )
  const submit = async () => {
    await api.put(path, {
      name: name.trim(),
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      thresholds: Object.fromEntries(
        THRESHOLD_KINDS.map(([kind]) => [
          kind,
          {
            warning: Number(levels[kind]?.warning),
            critical: Number(levels[kind]?.critical),
            holdSeconds: Number(levels[kind]?.holdSeconds),
          },
        ]),
      ),
    })
    onSaved()
  }
  const level = (
    kind: ThresholdKind,
    which: 'warning' | 'critical' | 'holdSeconds',
    label: string,
    range: { min: number; max: number; hint?: string },
  ) => (
    <Field label={label} hint={range.hint}>
      {(id, describedBy) => (
        <input
          id={id}
          type="number"
          min={range.min}
          max={range.max}
          required
          aria-describedby={describedBy}
          value={levels[kind]?.[which] ?? ''}
          onInput={(e) => setLevels({ ...levels, [kind]: { ...levels[kind]!, [which]: e.currentTarget.value } })}
        />
      )}
    </Field>
  )
  return (
    <Form onSubmit={submit} submitLabel="Save" onCancel={onCancel}>
      <Field label="Name">
        {(id) => (
          <input id={id} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Field label="Tags" hint="Separated by commas">
        {(id, describedBy) => (
          <input id={id} aria-describedby={describedBy} value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
        )}
      </Field>
      {THRESHOLD_KINDS.map(([kind, label]) => (
        <fieldset key={kind}>
          <legend>{label} usage (%)</legend>
          <div class="row">
            {level(kind, 'warning', `${label} warning at`, { min: 1, max: 100 })}
            {level(kind, 'critical', `${label} critical at`, { min: 1, max: 100 })}
            {level(kind, 'holdSeconds', `${label} held for (seconds)`, {
              min: 0,
              max: 86_400,
              hint: 'A level must last this long before health follows it, up or down',
            })}
          </div>
        </fieldset>
      ))}
    </Form>
  )
}

function MetricChart({
  path,
  range,
  tick,
  chart,
}: {
  path: string
  range: Range
  tick: number
  chart: (typeof CHARTS)[number]
}) {
  const metrics = useResource(
    () =>
      api
        .get<Envelope<Metric[]>>(`${path}/metrics`, { type: chart.type, range, limit: 10_000 })
        .then((body) => body.data),
    [path, range, tick, chart.type],
  )
  const data = useMemo(() => toSeries(metrics.data ?? [], chart.pick, chart.scale), [metrics.data, chart])
  return (
    <figure class="card">
      <figcaption>
        {chart.title} <span class="muted">({chart.unit})</span>
      </figcaption>
      {metrics.error ? <ErrorText error={metrics.error} retry={metrics.reload} /> : null}
      {metrics.data && data.x.length === 0 ? (
        <p class="muted chart-empty">No {chart.title.toLowerCase()} data in this range.</p>
      ) : (
        <Chart
          x={data.x}
          series={data.series}
          unit={chart.unit}
          height={180}
          label={`${chart.title} over the last ${range}`}
        />
      )}
    </figure>
  )
}

function Inventory({ path, tick }: { path: string; tick: number }) {
  const [tab, setTab] = useState<'processes' | 'applications' | 'connections'>('processes')
  const [filter, setFilter] = useState('')
  // The inventory changes every few minutes: every fifth metric refresh is often enough.
  const slow = Math.floor(tick / 5)
  const processes = useResource(
    () => api.get<Envelope<Process[]>>(`${path}/processes`).then((body) => body.data),
    [path, slow],
  )
  const applications = useResource(
    () => api.get<Envelope<Application[]>>(`${path}/applications`).then((body) => body.data),
    [path, slow],
  )
  const connections = useResource(
    () => api.get<Envelope<Connection[]>>(`${path}/network`).then((body) => body.data),
    [path, slow],
  )
  const needle = filter.trim().toLowerCase()
  const has = (...texts: Array<string | number | null>) =>
    !needle ||
    texts.some((text) =>
      String(text ?? '')
        .toLowerCase()
        .includes(needle),
    )

  const tabs = [
    ['processes', 'Processes', processes.data?.length],
    ['applications', 'Applications', applications.data?.length],
    ['connections', 'Connections', connections.data?.length],
  ] as const
  return (
    <section class="inventory">
      <h2>Inventory</h2>
      <div class="toolbar">
        <Tabs
          label="Inventory"
          idPrefix="inventory"
          tabs={tabs.map(
            ([value, label, count]) => [value, count === undefined ? label : `${label} (${count})`] as const,
          )}
          selected={tab}
          onSelect={setTab}
        />
        <label class="visually-hidden" for="inventory-filter">
          Filter the inventory
        </label>
        <input
          id="inventory-filter"
          type="search"
          placeholder="Filter"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
      </div>
      <div id="inventory-panel" role="tabpanel" aria-labelledby={`inventory-tab-${tab}`}>
        {tab === 'processes' ? (
          <Listing
            resource={processes}
            empty="No processes reported yet (the agent sends its inventory every few minutes)."
            render={(rows) => (
              <Table
                caption="Processes"
                rows={[...rows]
                  .filter((row) => has(row.name, row.command, row.user, row.pid))
                  .sort((a, b) => b.cpuPercent - a.cpuPercent)}
                rowKey={(row) => String(row.pid)}
                columns={[
                  { header: 'PID', align: 'right', cell: (row) => row.pid },
                  { header: 'Name', cell: (row) => <span title={row.command}>{row.name}</span> },
                  { header: 'CPU', align: 'right', cell: (row) => `${row.cpuPercent.toFixed(1)} %` },
                  { header: 'Memory', align: 'right', cell: (row) => `${row.memoryMB.toFixed(0)} MB` },
                  { header: 'User', secondary: true, cell: (row) => row.user },
                  { header: 'Status', secondary: true, cell: (row) => row.status },
                ]}
              />
            )}
          />
        ) : tab === 'applications' ? (
          <Listing
            resource={applications}
            empty="No applications reported yet."
            render={(rows) => (
              <Table
                caption="Applications"
                rows={rows.filter((row) => has(row.name, row.publisher, row.version))}
                rowKey={(row) => `${row.name}@${row.version}@${row.installPath}`}
                columns={[
                  { header: 'Name', cell: (row) => row.name },
                  { header: 'Version', cell: (row) => row.version },
                  { header: 'Publisher', secondary: true, cell: (row) => row.publisher || '—' },
                  { header: 'Size', align: 'right', secondary: true, cell: (row) => bytes(row.size) },
                  {
                    header: 'Running',
                    cell: (row) =>
                      row.isRunning ? <StateDot state="up" label="Running" /> : <span class="muted">No</span>,
                  },
                ]}
              />
            )}
          />
        ) : (
          <Listing
            resource={connections}
            empty="No connections reported yet."
            render={(rows) => (
              <Table
                caption="Network connections"
                rows={rows.filter((row) =>
                  has(row.localAddress, row.localPort, row.remoteAddress, row.remotePort, row.processName, row.status),
                )}
                rowKey={(row) =>
                  `${row.protocol}:${row.localAddress}:${row.localPort}:${row.remoteAddress}:${row.remotePort}:${row.processName}`
                }
                columns={[
                  { header: 'Protocol', cell: (row) => row.protocol },
                  { header: 'Local', cell: (row) => `${row.localAddress}:${row.localPort}` },
                  {
                    header: 'Remote',
                    cell: (row) => (row.remoteAddress ? `${row.remoteAddress}:${row.remotePort ?? '*'}` : '—'),
                  },
                  { header: 'State', cell: (row) => row.status },
                  { header: 'Process', secondary: true, cell: (row) => row.processName || '—' },
                ]}
              />
            )}
          />
        )}
      </div>
    </section>
  )
}

function Listing<T>({
  resource,
  empty,
  render,
}: {
  resource: { data: T[] | undefined; error: unknown; reload: () => void }
  empty: string
  render: (rows: T[]) => ComponentChildren
}) {
  if (resource.error) return <ErrorText error={resource.error} retry={resource.reload} />
  if (!resource.data) return <Loading lines={4} />
  if (resource.data.length === 0) return <Empty title={empty} />
  return <>{render(resource.data)}</>
}
