import type { Caller, CollectorContext } from '../../context.ts'
import { deleteMonitor } from '../monitors/delete.ts'

/** Removes the check, its schedule and (by cascade) its stored runs. */
export const deleteSynthetic = ({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) => deleteMonitor({ ctx, caller, input: { kind: 'synthetic', id: input.id } })
