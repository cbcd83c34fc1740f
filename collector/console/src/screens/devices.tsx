import { useMemo, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { CopyBlock } from '../components/copy-block.tsx'
import { Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Badge, Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { TagChips, TagFilter, useTagFilter, useTags } from '../components/tags.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { useOrg } from '../org.ts'
import type { Device, DeviceDetail } from '../types.ts'
import { healthTone } from '../types.ts'
import './screens.css'
import './devices.css'
import { FilterChoice, SearchField } from '../components/list-controls.tsx'

interface DeviceStats {
  total: number
  online: number
  offline: number
  healthy: number
  warning: number
  critical: number
  activeIncidents: number
}

const DEVICE_EVENTS = ['device.online', 'device.offline', 'device.health']

const DEVICE_STATES = [
  ['all', 'All states'],
  ['online', 'Online'],
  ['offline', 'Offline'],
  ['waiting', 'Waiting for first heartbeat'],
  ['warning', 'Warning'],
  ['critical', 'Critical'],
] as const

/** A device that has never reported is waiting, not offline: nothing has failed yet. */
export const isWaiting = (device: Device) => device.lastSeen === null

export function DeviceState({ device }: { device: Device }) {
  if (isWaiting(device)) return <StateDot state="pending" label="Waiting for first heartbeat" />
  return <StateDot state={device.isOnline ? 'online' : 'offline'} />
}

export default function Devices() {
  const { current } = useOrg()
  const query = { organizationId: current.id }
  const [tagFilter, setTagFilter] = useTagFilter()
  const known = useTags()
  const devices = useResource(
    () => api.get<Envelope<Device[]>>('/api/devices', { ...query, tag: tagFilter }).then((body) => body.data),
    [current.id, tagFilter.join('\n')],
  )
  const stats = useResource(
    () => api.get<Envelope<DeviceStats>>('/api/devices/stats', query).then((body) => body.data),
    [current.id],
  )
  const [search, setSearch] = useState('')
  const [state, setState] = useState<(typeof DEVICE_STATES)[number][0]>('all')
  const [enrolling, setEnrolling] = useState(false)

  useLive(DEVICE_EVENTS, () => {
    devices.reload()
    stats.reload()
  })

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase()
    return (devices.data ?? []).filter((device) => {
      if (state === 'online' && !device.isOnline) return false
      if (state === 'offline' && (device.isOnline || isWaiting(device))) return false
      if (state === 'waiting' && !isWaiting(device)) return false
      if ((state === 'warning' || state === 'critical') && device.healthStatus !== state) return false
      if (!needle) return true
      return [device.name, device.hostname ?? '', device.platform ?? '', ...device.tags].some((text) =>
        text.toLowerCase().includes(needle),
      )
    })
  }, [devices.data, search, state])
  // The API counts a device that never reported as offline; here it is waiting, apart.
  const waiting = devices.data?.filter(isWaiting).length
  const offline = stats.data && waiting !== undefined ? Math.max(stats.data.offline - waiting, 0) : undefined

  return (
    <section class="screen">
      <header class="page-head">
        <h1>Devices</h1>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setEnrolling(true)}>
            Enrol a device
          </button>
        </div>
      </header>

      <div class="cards device-stats">
        {(
          [
            ['Total', stats.data?.total],
            ['Online', stats.data?.online],
            ['Offline', offline],
            ['Waiting', waiting],
            ['Warning', stats.data?.warning],
            ['Critical', stats.data?.critical],
            ['Active incidents', stats.data?.activeIncidents],
          ] as const
        ).map(([label, value]) => (
          <div class="card stat" key={label}>
            <span class="stat-label">{label}</span>
            <span class="stat-value">{value ?? '–'}</span>
          </div>
        ))}
      </div>

      <div class="toolbar">
        <SearchField
          label="Search devices"
          placeholder="Search name, host, platform, tag"
          value={search}
          onInput={setSearch}
        />
        <FilterChoice
          label="Filter by state"
          value={state}
          options={DEVICE_STATES}
          onChange={(value) => setState(value as typeof state)}
        />
        <TagFilter label="Filter devices by tag" known={known.tags} selected={tagFilter} onChange={setTagFilter} />
      </div>

      {devices.error ? <ErrorText error={devices.error} retry={devices.reload} /> : null}
      {devices.data === undefined ? (
        devices.error ? null : (
          <Loading label="Loading devices…" />
        )
      ) : devices.data.length === 0 && tagFilter.length === 0 ? (
        <Empty title="No devices yet">
          <p>Enrol a server to see its CPU, memory, disk and network here.</p>
        </Empty>
      ) : shown.length === 0 ? (
        <Empty title="No device matches these filters" />
      ) : (
        <Table
          caption="Devices"
          rows={shown}
          rowKey={(device) => device.id}
          columns={[
            {
              header: 'Name',
              cell: (device) => (
                <>
                  <a href={`/devices/${encodeURIComponent(device.id)}`}>{device.name}</a>
                  <TagChips tags={device.tags} colorOf={known.colorOf} />
                </>
              ),
            },
            { header: 'State', cell: (device) => <DeviceState device={device} /> },
            {
              header: 'Health',
              cell: (device) =>
                isWaiting(device) ? (
                  <span class="muted">—</span>
                ) : (
                  <Badge tone={healthTone[device.healthStatus] ?? 'neutral'}>{device.healthStatus}</Badge>
                ),
            },
            { header: 'Host', secondary: true, cell: (device) => device.hostname ?? <span class="muted">—</span> },
            { header: 'Platform', secondary: true, cell: (device) => device.platform ?? <span class="muted">—</span> },
            { header: 'Last seen', cell: (device) => <Time value={device.lastSeen} /> },
          ]}
        />
      )}

      <EnrolDialog
        open={enrolling}
        onClose={() => {
          setEnrolling(false)
          devices.reload()
          stats.reload()
        }}
      />
    </section>
  )
}

type Enrolled = DeviceDetail & { token: string }

const tagList = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)

function EnrolDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('')
  const [tags, setTags] = useState('')
  const [enrolled, setEnrolled] = useState<Enrolled | undefined>(undefined)
  const close = () => {
    setName('')
    setTags('')
    setEnrolled(undefined)
    onClose()
  }

  const submit = async () => {
    const answer = await api.post<Envelope<Enrolled>>('/api/devices', { name: name.trim(), tags: tagList(tags) })
    setEnrolled(answer.data)
  }

  return (
    <Dialog open={open} title={enrolled ? `${enrolled.name} is enrolled` : 'Enrol a device'} onClose={close}>
      {enrolled ? (
        <AgentInstructions device={enrolled} token={enrolled.token} onDone={close} />
      ) : (
        <>
          <Form onSubmit={submit} submitLabel="Enrol" busyLabel="Enrolling…" onCancel={close} once>
            <Field label="Name" hint="How the device appears in Guard, e.g. web-1">
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  required
                  maxLength={100}
                  value={name}
                  onInput={(event) => setName(event.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Tags" hint="Optional, separated by commas">
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  value={tags}
                  onInput={(event) => setTags(event.currentTarget.value)}
                />
              )}
            </Field>
          </Form>
          <section class="enrol-alternative" aria-labelledby="enrol-from-machine">
            <h3 id="enrol-from-machine">Or enrol from the machine itself</h3>
            <p class="muted">
              Instead of <strong>Enrol</strong> above, not as well: on the machine (Node 20 or newer, systemd), this
              creates the device with an API key that may write devices (see <a href="/keys">API keys</a>) and runs the
              agent as a service.
            </p>
            <CopyBlock label="Enrol command" value={enrolFromMachine(location.origin, name.trim(), tagList(tags))} />
          </section>
        </>
      )}
    </Dialog>
  )
}

/** Where the agent reads its configuration: `guard agent install`'s default, and the install script's. */
const CONFIG = '/etc/guard/agent.json'

/**
 * The collector's one-command install (README "Shipping the agent"): it downloads the agent,
 * refuses it unless its checksum matches, installs and starts the service, and enrols only when
 * the machine has no configuration yet.
 */
const installScript = (collector: string, options: string[] = []) =>
  `curl -fsSL ${collector}/agent/install.sh | sudo sh${options.length > 0 ? ` -s -- ${options.join(' ')}` : ''}`

/** Enrols the machine it runs on as a new device (with an API key), then installs the agent. */
export function enrolFromMachine(collector: string, name: string, tags: string[]): string {
  return [
    "GUARD_API_KEY='paste an API key with devices:write here'",
    installScript(collector, [
      '--key "$GUARD_API_KEY"',
      `--name ${name ? shellWord(name) : '"$(hostname)"'}`,
      ...tags.map((tag) => `--tag ${shellWord(tag)}`),
    ]),
  ].join('\n')
}

/** Runs the agent in the foreground as this device, to try it: the shipped file needs only Node. */
export function runCommand(collector: string, device: Pick<Device, 'id'>, token: string): string {
  return [
    `curl -fsSL -o guard-agent.mjs ${collector}/agent/download`,
    [
      `GUARD_COLLECTOR_URL=${collector}`,
      `GUARD_DEVICE_ID=${device.id}`,
      `GUARD_DEVICE_TOKEN=${token}`,
      'node guard-agent.mjs',
    ].join(' \\\n'),
  ].join('\n')
}

/**
 * Writes this device's configuration, so the install script finds it and enrols nothing, then
 * installs the agent as a service reporting as this device.
 */
export function installCommand(collector: string, device: Pick<Device, 'id'>, token: string): string {
  const config = JSON.stringify({ collectorUrl: collector, deviceId: device.id, token }, null, 2)
  return [
    'sudo install -d -m 755 /etc/guard',
    `sudo install -m 600 /dev/stdin ${CONFIG} <<'EOF'\n${config}\nEOF`,
    installScript(collector),
  ].join('\n')
}

/**
 * The one-time token and the commands that start the agent as this device; shown after enrolment
 * and token regeneration. Every command reports as this device: none creates another.
 */
export function AgentInstructions({ device, token, onDone }: { device: Device; token: string; onDone: () => void }) {
  const collector = location.origin
  return (
    <div class="one-time">
      <p>
        This agent token is shown <strong>once</strong>. Copy it now; Guard keeps only its hash. Regenerate it from the
        device's page if it is lost.
      </p>
      <CopyBlock label="Agent token" value={token} />
      <h3>Install the agent on {device.name}</h3>
      <p class="muted">
        On the machine (Node 20 or newer, systemd): writes this device's configuration (mode 0600), then the collector's
        install script downloads the agent, checks its checksum and runs it as a service. The agent reports as{' '}
        {device.name}; no other device is enrolled.
      </p>
      <CopyBlock label="Install command" value={installCommand(collector, device, token)} />
      <h3>Or try it in a terminal first</h3>
      <CopyBlock label="Run command" value={runCommand(collector, device, token)} />
      <div class="form-actions">
        <button type="button" class="primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}

const shellWord = (value: string) => (/^[A-Za-z0-9._-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`)
