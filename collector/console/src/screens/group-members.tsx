import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { useResource } from '../components/use-api.ts'
import { useAction } from '../use-action.ts'
import type { GroupDetail, GroupMember, MemberKind } from './groups-types.ts'

interface Candidate {
  kind: MemberKind
  id: string
  name: string
}

const KIND_LABEL: Record<MemberKind, string> = {
  domain: 'Domains',
  service: 'Services',
  heartbeat: 'Heartbeats',
  device: 'Devices',
}

/** Monitors and devices that can be added, read from the lists (the first 200 of each kind). */
async function loadCandidates(): Promise<Candidate[]> {
  const named = (kind: MemberKind) => (items: Array<{ id: string; name: string }>) =>
    items.map((item) => ({ kind, id: item.id, name: item.name }))
  type Items = Envelope<Array<{ id: string; name: string }>>
  const lists = await Promise.all([
    api.get<Items>('/api/domains', { limit: 200 }).then((body) => named('domain')(body.data)),
    api.get<Items>('/api/services').then((body) => named('service')(body.data)),
    api.get<Items>('/api/heartbeats').then((body) => named('heartbeat')(body.data)),
    api.get<Items>('/api/devices').then((body) => named('device')(body.data)),
  ])
  return lists.flat()
}

/** A group's members with their states; members are picked from the organization's monitors and devices. */
export function GroupMembers({ id, onChanged }: { id: string; onChanged: () => void }) {
  const detail = useResource(
    () => api.get<Envelope<GroupDetail>>(`/api/groups/${encodeURIComponent(id)}`).then((body) => body.data),
    [id],
  )
  const candidates = useResource(loadCandidates, [id])
  const [picked, setPicked] = useState('')
  const action = useAction()

  const change = async (body: { add?: Candidate[]; remove?: Candidate[] }) => {
    const strip = (list: Candidate[] | undefined) => list?.map(({ kind, id: subject }) => ({ kind, id: subject }))
    const done = await action.run(async () => {
      await api.put(`/api/groups/${encodeURIComponent(id)}/members`, {
        add: strip(body.add),
        remove: strip(body.remove),
      })
      return true
    })
    if (!done) return
    setPicked('')
    detail.reload()
    onChanged()
  }

  if (detail.error) return <ErrorText error={detail.error} retry={detail.reload} />
  if (!detail.data) return <Loading />
  const group = detail.data
  const inGroup = new Set(group.members.map((member) => `${member.kind}:${member.id}`))
  const choices = (candidates.data ?? []).filter((candidate) => !inGroup.has(`${candidate.kind}:${candidate.id}`))
  const pick = choices.find((candidate) => `${candidate.kind}:${candidate.id}` === picked)
  const columns: Array<Column<GroupMember>> = [
    { header: 'State', cell: (member) => <StateDot state={member.state} /> },
    { header: 'Name', cell: (member) => member.name },
    { header: 'Kind', cell: (member) => member.kind },
    {
      header: 'Actions',
      cell: (member) => (
        <button type="button" onClick={() => void change({ remove: [member] })} aria-label={`Remove ${member.name}`}>
          Remove
        </button>
      ),
    },
  ]

  return (
    <section aria-labelledby="group-members-title" class="card" style={{ marginTop: '1rem' }}>
      <h2 id="group-members-title">
        {group.name} <StateDot state={group.state} />
      </h2>
      {action.error ? <ErrorText error={action.error} /> : null}
      <div class="toolbar">
        <label class="grow">
          <span class="visually-hidden">Monitor or device to add</span>
          <select value={picked} onChange={(event) => setPicked(event.currentTarget.value)} style={{ width: '100%' }}>
            <option value="">Pick a monitor or device…</option>
            {(Object.keys(KIND_LABEL) as MemberKind[]).map((kind) => (
              <optgroup key={kind} label={KIND_LABEL[kind]}>
                {choices
                  .filter((candidate) => candidate.kind === kind)
                  .map((candidate) => (
                    <option key={candidate.id} value={`${kind}:${candidate.id}`}>
                      {candidate.name}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <button type="button" disabled={!pick || action.busy} onClick={() => pick && void change({ add: [pick] })}>
          Add to the group
        </button>
      </div>
      {group.members.length === 0 ? (
        <Empty title="No members yet">Pick a monitor or a device above.</Empty>
      ) : (
        <Table
          caption={`Members of ${group.name}`}
          rows={group.members}
          columns={columns}
          rowKey={(member) => `${member.kind}:${member.id}`}
        />
      )}
    </section>
  )
}
