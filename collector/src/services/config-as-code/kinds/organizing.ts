import { GuardError } from '@guard/shared'
import { createGroup } from '../../groups/create.ts'
import { deleteGroup } from '../../groups/delete.ts'
import { listGroups } from '../../groups/list.ts'
import { createGroupInput, type GroupTreeNode } from '../../groups/schemas.ts'
import { updateGroup } from '../../groups/update.ts'
import { listTags } from '../../tags/list.ts'
import { setTagColor } from '../../tags/set-color.ts'
import type { Fields, KindAdapter, References } from '../kind.ts'
import { changedBody } from './monitors.ts'

const tagKeyOf = (name: string) => name.split(':')[0]!

/** A tag exists while something carries it; what the organization stores of it is its key's colour. */
export const tagAdapter: KindAdapter = {
  kind: 'tag',
  list: 'tags',
  neverPruned: true,
  naturalName: (entry) => String(entry.name ?? entry.id),
  async read(ctx, caller) {
    return (await listTags({ ctx, caller, input: {} })).map((tag) => ({
      objectId: tag.tag,
      name: tag.tag,
      fields: () => ({ name: tag.tag, ...(tag.colorSet ? { color: tag.color } : {}) }),
    }))
  },
  desired: (entry) => ({
    fields: {
      name: String(entry.name ?? entry.id),
      ...(typeof entry.color === 'string' ? { color: entry.color.toLowerCase() } : {}),
    },
    secrets: {},
  }),
  async create({ ctx, caller }, desired) {
    const name = String(desired.fields.name)
    if (typeof desired.fields.color === 'string') {
      await setTagColor({ ctx, caller, input: { key: tagKeyOf(name), color: desired.fields.color } })
    }
    return name
  },
  async update({ ctx, caller }, objectId, changed, desired) {
    if (changed.includes('name')) {
      throw new GuardError('VALIDATION_ERROR', 'name: a tag is renamed on the monitors that carry it, not here')
    }
    if (typeof desired.fields.color === 'string') {
      await setTagColor({ ctx, caller, input: { key: tagKeyOf(objectId), color: desired.fields.color } })
    }
  },
  remove: async () => {},
}

const flatten = (nodes: GroupTreeNode[]): GroupTreeNode[] => nodes.flatMap((node) => [node, ...flatten(node.children)])

const groupBody = (fields: Fields, references: References): Fields => {
  const { parent, ...body } = fields
  if (!('parent' in fields)) return body
  if (parent === null || parent === undefined) return { ...body, parentId: null }
  const parentId = references.idOf('group', String(parent))
  if (!parentId) throw new GuardError('VALIDATION_ERROR', `parent: unknown group id ${String(parent)}`)
  return { ...body, parentId }
}

export const groupAdapter: KindAdapter = {
  kind: 'group',
  list: 'groups',
  async read(ctx, caller) {
    return flatten(await listGroups({ ctx, caller, input: {} })).map((group) => ({
      objectId: group.id,
      name: group.name,
      fields: (references) => ({
        name: group.name,
        ...(group.parentId ? { parent: references.keyOf('group', group.parentId) ?? group.parentId } : {}),
        rule: group.rule,
        ...(group.description === null ? {} : { description: group.description }),
      }),
    }))
  },
  desired(entry) {
    const { id: _id, parent, ...body } = entry
    const parsed = createGroupInput.parse(body)
    return {
      fields: {
        name: parsed.name,
        ...(parent === undefined ? {} : { parent }),
        rule: parsed.rule,
        ...(parsed.description === null ? {} : { description: parsed.description }),
      },
      secrets: {},
    }
  },
  async create({ ctx, caller, references }, desired) {
    const group = await createGroup({ ctx, caller, input: groupBody(desired.fields, references) as never })
    return group.id
  },
  async update({ ctx, caller, references }, objectId, changed, desired) {
    await updateGroup({
      ctx,
      caller,
      input: { id: objectId, ...groupBody(changedBody(changed, desired), references) } as never,
    })
  },
  remove: async ({ ctx, caller }, objectId) => {
    await deleteGroup({ ctx, caller, input: { id: objectId } })
  },
}
