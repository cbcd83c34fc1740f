import { useMemo, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { Field, Form } from '../components/form.tsx'
import { Secret } from '../components/secret.tsx'
import { Badge, Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { useOrg } from '../org.ts'
import type { Device, DeviceDetail } from '../types.ts'
import { healthTone } from '../types.ts'
import './screens.css'
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
  ['warning', 'Warning'],
  ['critical', 'Critical'],
] as const

export default function Devices() {
  const { current } = useOrg()
  const query = { organizationId: current.id }
  const devices = useResource(
    () => api.get<Envelope<Device[]>>('/api/devices', query).then((body) => body.data),
    [current.id],
  )
  const stats = useResource(
    () => api.get<Envelope<DeviceStats>>('/api/devices/stats', query).then((body) => body.data),
    [current.id],
  )
  const [search, setSearch] = useState('')
  const [state, setState] = useState<'all' | 'online' | 'offline' | 'warning' | 'critical'>('all')
  const [enrolling, setEnrolling] = useState(false)

  useLive(DEVICE_EVENTS, () => {
    devices.reload()
    stats.reload()
  })

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase()
    return (devices.data ?? []).filter((device) => {
      if (state === 'online' && !device.isOnline) return false
      if (state === 'offline' && device.isOnline) return false
      if ((state === 'warning' || state === 'critical') && device.healthStatus !== state) return false
      if (!needle) return true
      return [device.name, device.hostname ?? '', device.platform ?? '', ...device.tags].some((text) =>
        text.toLowerCase().includes(needle),
      )
    })
  }, [devices.data, search, state])

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
            ['Offline', stats.data?.offline],
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
      </div>

      {devices.error ? <ErrorText error={devices.error} retry={devices.reload} /> : null}
      {devices.data === undefined ? (
        devices.error ? null : (
          <Loading label="Loading devices…" />
        )
      ) : devices.data.length === 0 ? (
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
                  {device.tags.length > 0 ? (
                    <div class="tags">
                      {device.tags.map((tag) => (
                        <Badge key={tag}>{tag}</Badge>
                      ))}
                    </div>
                  ) : null}
                </>
              ),
            },
            { header: 'State', cell: (device) => <StateDot state={device.isOnline ? 'online' : 'offline'} /> },
            {
              header: 'Health',
              cell: (device) =>
                device.lastSeen ? (
                  <Badge tone={healthTone[device.healthStatus] ?? 'neutral'}>{device.healthStatus}</Badge>
                ) : (
                  <span class="muted">Waiting for the agent</span>
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
    const body = {
      name: name.trim(),
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    }
    const answer = await api.post<Envelope<Enrolled>>('/api/devices', body)
    setEnrolled(answer.data)
  }

  return (
    <Dialog open={open} title={enrolled ? `${enrolled.name} is enrolled` : 'Enrol a device'} onClose={close}>
      {enrolled ? (
        <AgentInstructions device={enrolled} token={enrolled.token} onDone={close} />
      ) : (
        <Form onSubmit={submit} submitLabel="Enrol" busyLabel="Enrolling…" onCancel={close}>
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
      )}
    </Dialog>
  )
}

/** The one-time token and the commands that start the agent with it; shown after enrolment and token regeneration. */
export function AgentInstructions({ device, token, onDone }: { device: Device; token: string; onDone: () => void }) {
  const collector = location.origin
  const run = `GUARD_COLLECTOR_URL=${collector} GUARD_DEVICE_ID=${device.id} GUARD_DEVICE_TOKEN=${token} guard agent`
  const enroll = `guard agent enroll --collector ${collector} --key <API key> --name ${shellWord(device.name)}`
  return (
    <div class="one-time">
      <p>
        This agent token is shown <strong>once</strong>. Copy it now; Guard keeps only its hash. Regenerate it from the
        device's page if it is lost.
      </p>
      <Secret label="Agent token" value={token} />
      <h3>Start the agent with this token</h3>
      <Secret label="Command" value={run} />
      <h3>Or enrol from the machine itself</h3>
      <p class="muted">
        With an API key that may write devices, this creates a new device and writes the agent's configuration (mode
        0600); then <code>sudo guard agent install</code> runs it as a service.
      </p>
      <Secret label="Install command" value={enroll} />
      <div class="form-actions">
        <button type="button" class="primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}

const shellWord = (value: string) => (/^[A-Za-z0-9._-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`)
