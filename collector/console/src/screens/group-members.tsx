import { api, type Envelope } from '../api.ts'
import { MonitorSearch } from '../components/monitor-search.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { type Column, Table } from '../components/table.tsx'
import { useResource } from '../components/use-api.ts'
import { useAction } from '../use-action.ts'
import type { GroupDetail, GroupMember, MemberKind } from './groups-types.ts'

interface Subject {
  kind: MemberKind
  id: string
  name: string
}

/** A group's members with their states; members are picked from the organization's monitors and devices. */
export function GroupMembers({ id, onChanged }: { id: string; onChanged: () => void }) {
  const detail = useResource(
    () => api.get<Envelope<GroupDetail>>(`/api/groups/${encodeURIComponent(id)}`).then((body) => body.data),
    [id],
  )
  const action = useAction()

  const change = async (body: { add?: Subject[]; remove?: Subject[] }) => {
    const strip = (list: Subject[] | undefined) => list?.map(({ kind, id: subject }) => ({ kind, id: subject }))
    const done = await action.run(async () => {
      await api.put(`/api/groups/${encodeURIComponent(id)}/members`, {
        add: strip(body.add),
        remove: strip(body.remove),
      })
      return true
    })
    if (!done) return
    detail.reload()
    onChanged()
  }

  if (detail.error) return <ErrorText error={detail.error} retry={detail.reload} />
  if (!detail.data) return <Loading />
  const group = detail.data
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
      <MonitorSearch
        id={`group-add-${id}`}
        label="Monitor or device to add"
        exclude={group.members.map((member) => member.id)}
        onPick={(match) => void change({ add: [match] })}
      />
      {group.members.length === 0 ? (
        <Empty title="No members yet">Search for a monitor or a device above and pick it.</Empty>
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
