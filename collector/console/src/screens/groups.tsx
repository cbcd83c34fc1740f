import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Confirm, Dialog } from '../components/dialog.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { MONITOR_EVENTS } from '../monitors.ts'
import { useOrg } from '../org.ts'
import { useAction } from '../use-action.ts'
import { GroupForm } from './group-form.tsx'
import { GroupMembers } from './group-members.tsx'
import type { Group, GroupRule } from './groups-types.ts'
import './screens.css'

const ruleText = (rule: GroupRule) =>
  rule.type === 'all'
    ? 'down when all are down'
    : rule.type === 'any'
      ? 'down when any is down'
      : `down when ${rule.percent} % are down`

/** Every group of the tree, parents before their children, with its depth (0 at the top). */
export function flatten(groups: readonly Group[], depth = 0): Array<{ group: Group; depth: number }> {
  return groups.flatMap((group) => [{ group, depth }, ...flatten(group.children, depth + 1)])
}

function GroupTree({
  groups,
  selected,
  onSelect,
  onEdit,
  onDelete,
}: {
  groups: readonly Group[]
  selected: string | undefined
  onSelect: (group: Group) => void
  onEdit: (group: Group) => void
  onDelete: (group: Group) => void
}) {
  return (
    <ul class="group-tree">
      {groups.map((group) => (
        <li key={group.id}>
          <div class="group-row">
            <StateDot state={group.state} />
            <button type="button" class="link" aria-pressed={selected === group.id} onClick={() => onSelect(group)}>
              {group.name}
            </button>
            <span class="muted">
              {group.memberCount} {group.memberCount === 1 ? 'member' : 'members'}
              {group.children.length > 0 ? `, ${group.children.length} subgroups` : ''} · {ruleText(group.rule)}
            </span>
            <button type="button" onClick={() => onEdit(group)} aria-label={`Edit ${group.name}`}>
              Edit
            </button>
            <button type="button" class="danger" onClick={() => onDelete(group)} aria-label={`Delete ${group.name}`}>
              Delete
            </button>
          </div>
          {group.children.length > 0 ? (
            <GroupTree
              groups={group.children}
              selected={selected}
              onSelect={onSelect}
              onEdit={onEdit}
              onDelete={onDelete}
            />
          ) : null}
        </li>
      ))}
    </ul>
  )
}

export default function Groups() {
  const { current } = useOrg()
  const tree = useResource(() => api.get<Envelope<Group[]>>('/api/groups').then((body) => body.data), [current.id])
  const [selected, setSelected] = useState<string | undefined>(undefined)
  const [editing, setEditing] = useState<Group | 'new' | undefined>(undefined)
  const [deleting, setDeleting] = useState<Group | undefined>(undefined)
  const action = useAction()
  // Groups' states follow their members': a member's change of state redraws the tree.
  useLive(MONITOR_EVENTS, tree.reload)

  const remove = async () => {
    const group = deleting
    setDeleting(undefined)
    if (!group) return
    if ((await action.run(() => api.del(`/api/groups/${encodeURIComponent(group.id)}`))) === undefined) return
    if (selected === group.id) setSelected(undefined)
    tree.reload()
  }

  return (
    <section aria-labelledby="groups-title" class="screen">
      <div class="page-head">
        <h1 id="groups-title">Groups</h1>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            Create a group
          </button>
        </div>
      </div>
      <p class="muted">
        A group gathers domains, services, heartbeats and devices; its state follows its members' by its rule, and
        groups nest three levels deep.
      </p>
      {action.error ? <ErrorText error={action.error} /> : null}
      {tree.error ? (
        <ErrorText error={tree.error} retry={tree.reload} />
      ) : !tree.data ? (
        <Loading />
      ) : tree.data.length === 0 ? (
        <Empty title="No groups yet">Create one, then add monitors and devices to it.</Empty>
      ) : (
        <GroupTree
          groups={tree.data}
          selected={selected}
          onSelect={(group) => setSelected(group.id)}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      )}
      {selected ? <GroupMembers id={selected} onChanged={tree.reload} /> : null}
      <Dialog
        open={editing !== undefined}
        title={editing === 'new' ? 'Create a group' : `Edit ${editing?.name ?? ''}`}
        onClose={() => setEditing(undefined)}
      >
        {editing ? (
          <GroupForm
            group={editing === 'new' ? undefined : editing}
            all={flatten(tree.data ?? [])}
            onDone={(saved) => {
              setEditing(undefined)
              setSelected(saved.id)
              tree.reload()
            }}
            onCancel={() => setEditing(undefined)}
          />
        ) : null}
      </Dialog>
      <Confirm
        open={deleting !== undefined}
        title={`Delete ${deleting?.name ?? 'the group'}?`}
        message="Its members become ungrouped and its subgroups top-level; the monitors and devices stay."
        confirmLabel="Delete the group"
        onConfirm={() => void remove()}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  )
}
