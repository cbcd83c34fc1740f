import { GuardError } from '@guard/shared'
import type { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { deadLetterIdInput, type PlatformOperator } from './schemas.ts'

/** Forgets a dead letter for good. */
export async function dropDeadLetter({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: PlatformOperator
  input: z.input<typeof deadLetterIdInput>
}): Promise<{ id: string }> {
  const { id } = deadLetterIdInput.parse(input)
  const { rows } = await ctx.sql.query<{ id: string }>(
    'DELETE FROM monitoring.dead_letters WHERE id = $1 RETURNING id',
    [id],
  )
  if (rows.length === 0) throw new GuardError('NOT_FOUND', `No dead letter ${id}`)
  ctx.log.info({ deadLetter: id, by: caller.label }, 'dead letter dropped')
  return { id }
}
