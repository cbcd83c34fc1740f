import { z } from 'zod'
import { MONITOR_KINDS } from '../monitors/kinds/index.ts'

/** Groups nest at most this many levels: a top-level group, its children and their children. */
export const MAX_GROUP_DEPTH = 3

export const groupRule = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('all') }),
    z.strictObject({ type: z.literal('any') }),
    z.strictObject({
      type: z.literal('percent'),
      percent: z.number().int().min(1, 'percent: at least 1').max(100, 'percent: at most 100'),
    }),
  ])
  .describe(
    'all: up only when every member is up, down when all are down, degraded otherwise; any: down when any member is down; percent: down when at least percent % of the members are down, degraded when any is',
  )
export type GroupRule = z.infer<typeof groupRule>

export const memberKind = z.enum(MONITOR_KINDS)
export type MemberKind = z.infer<typeof memberKind>

/** What a member or a group reads as; paused and unknown members do not count towards a group's state. */
export const memberState = z.enum(['up', 'down', 'degraded', 'unknown', 'paused'])
export type MemberState = z.infer<typeof memberState>
export const groupState = z.enum(['up', 'down', 'degraded', 'unknown'])
export type GroupState = z.infer<typeof groupState>

const name = z.string().trim().min(1, 'name must not be empty').max(100)
const description = z.string().trim().max(1000).nullable()
const parentId = z.string().min(1).max(64).nullable().describe('The parent group; null: a top-level group')

export const createGroupInput = z.strictObject({
  name,
  parentId: parentId.default(null),
  rule: groupRule.default({ type: 'all' }),
  description: description.default(null),
})
export type CreateGroupInput = z.input<typeof createGroupInput>

export const updateGroupInput = z
  .strictObject({
    name: name.optional(),
    parentId: parentId.optional(),
    rule: groupRule.optional(),
    description: description.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'name at least one field to change')
export type UpdateGroupInput = z.input<typeof updateGroupInput>

export const subject = z.strictObject({ kind: memberKind, id: z.string().min(1).max(64) })
export type Subject = z.infer<typeof subject>

export const setMembersInput = z
  .strictObject({
    add: z.array(subject).max(1000).default([]).describe('Members to add; one in another group moves here'),
    remove: z.array(subject).max(1000).default([]).describe('Members to take out; one not in this group is ignored'),
  })
  .refine((input) => input.add.length + input.remove.length > 0, 'name at least one member to add or remove')
export type SetMembersInput = z.input<typeof setMembersInput>

const groupFields = {
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  rule: groupRule,
  description: z.string().nullable(),
  state: groupState.describe("Derived from the members' states (child groups included) by the rule"),
  memberCount: z.number().int().describe('Monitors and devices directly in the group'),
  createdAt: z.string(),
  updatedAt: z.string(),
}
export const groupView = z.object(groupFields)
export type GroupView = z.infer<typeof groupView>

export const memberView = z.object({ kind: memberKind, id: z.string(), name: z.string(), state: memberState })
export type MemberView = z.infer<typeof memberView>

export const groupDetail = groupView.extend({
  members: z.array(memberView),
  children: z.array(groupView).describe('Child groups, which count as members'),
})
export type GroupDetail = z.infer<typeof groupDetail>

/** The tree is drawn to the depth limit, so its schema needs no recursion. */
const leaf = groupView.extend({ children: z.array(groupView).max(0).describe('Always empty: the depth limit') })
const middle = groupView.extend({ children: z.array(leaf) })
export const groupTreeNode = groupView.extend({ children: z.array(middle) })
export interface GroupTreeNode extends GroupView {
  children: GroupTreeNode[]
}
