import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from './find.ts'
import type { MonitorKind, MonitorRecord } from './schemas.ts'

export const getMonitor = ({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { kind: MonitorKind; id: string }
}): Promise<MonitorRecord> => findMonitor(ctx.sql, caller, input.kind, input.id)
