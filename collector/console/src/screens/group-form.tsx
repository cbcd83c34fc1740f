import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Field, Form } from '../components/form.tsx'
import type { Group, GroupRule } from './groups-types.ts'

/** The ids of a group and of everything under it: none of them can become its parent. */
const subtreeOf = (group: Group): string[] => [group.id, ...group.children.flatMap(subtreeOf)]

/** Creates a group, or renames it, moves it under another parent and sets its rule. */
export function GroupForm({
  group,
  all,
  onDone,
  onCancel,
}: {
  group: Group | undefined
  all: Array<{ group: Group; depth: number }>
  onDone: (saved: { id: string }) => void
  onCancel: () => void
}) {
  const [name, setName] = useState(group?.name ?? '')
  const [parentId, setParentId] = useState(group?.parentId ?? '')
  const [ruleType, setRuleType] = useState<GroupRule['type']>(group?.rule.type ?? 'all')
  const [percent, setPercent] = useState(String(group?.rule.type === 'percent' ? group.rule.percent : 50))
  const excluded = new Set(group ? subtreeOf(group) : [])

  const submit = async () => {
    const rule: GroupRule = ruleType === 'percent' ? { type: 'percent', percent: Number(percent) } : { type: ruleType }
    const body = { name: name.trim(), parentId: parentId || null, rule }
    const saved = group
      ? await api.put<Envelope<{ id: string }>>(`/api/groups/${encodeURIComponent(group.id)}`, body)
      : await api.post<Envelope<{ id: string }>>('/api/groups', body)
    onDone(saved.data)
  }

  return (
    <Form onSubmit={submit} submitLabel={group ? 'Save the group' : 'Create the group'} onCancel={onCancel}>
      <Field label="Name">
        {(id) => (
          <input id={id} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Field label="Parent group" hint="Groups nest three levels deep at most">
        {(id, describedBy) => (
          <select
            id={id}
            aria-describedby={describedBy}
            value={parentId}
            onChange={(e) => setParentId(e.currentTarget.value)}
          >
            <option value="">None (top level)</option>
            {all
              .filter((entry) => !excluded.has(entry.group.id))
              .map((entry) => (
                <option key={entry.group.id} value={entry.group.id}>
                  {`${'— '.repeat(entry.depth)}${entry.group.name}`}
                </option>
              ))}
          </select>
        )}
      </Field>
      <Field label="Rule" hint="How the members' states make the group's">
        {(id, describedBy) => (
          <select
            id={id}
            aria-describedby={describedBy}
            value={ruleType}
            onChange={(e) => setRuleType(e.currentTarget.value as GroupRule['type'])}
          >
            <option value="all">All: up only when every member is up, down when all are down</option>
            <option value="any">Any: down when any member is down</option>
            <option value="percent">Percent: down when a share of the members is down</option>
          </select>
        )}
      </Field>
      {ruleType === 'percent' ? (
        <Field label="Share of members down (%)">
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={100}
              required
              value={percent}
              onInput={(e) => setPercent(e.currentTarget.value)}
            />
          )}
        </Field>
      ) : null}
    </Form>
  )
}
