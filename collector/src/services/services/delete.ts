import type { Caller, CollectorContext } from '../../context.ts'
import { deleteMonitor } from '../monitors/delete.ts'

export const deleteService = ({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) => deleteMonitor({ ctx, caller, input: { kind: 'service', id: input.id } })
