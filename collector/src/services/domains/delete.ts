import type { Caller, CollectorContext } from '../../context.ts'
import { deleteMonitor } from '../monitors/delete.ts'

export const deleteDomain = ({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) => deleteMonitor({ ctx, caller, input: { kind: 'domain', id: input.id } })
