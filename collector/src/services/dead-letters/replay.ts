import { GuardError } from '@guard/shared'
import type { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { DEAD_LETTER_COLUMNS, type DeadLetterRow, deadLetterIdInput, type PlatformOperator } from './schemas.ts'

/**
 * Publishes a dead letter's message on its original subject again (after a fix, say) and forgets
 * it. The new message id keeps JetStream from dropping it as a duplicate of the original; the
 * consumers skip what they already stored, and one still refused becomes a new dead letter.
 */
export async function replayDeadLetter({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: PlatformOperator
  input: z.input<typeof deadLetterIdInput>
}): Promise<{ id: string; subject: string }> {
  const { id } = deadLetterIdInput.parse(input)
  const { rows } = await ctx.sql.query<DeadLetterRow>(
    `SELECT ${DEAD_LETTER_COLUMNS} FROM monitoring.dead_letters WHERE id = $1`,
    [id],
  )
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', `No dead letter ${id}`)
  await ctx.bus.publish(row.subject, row.data, { msgId: `replay-${id}-${Date.now()}` })
  await ctx.sql.query('DELETE FROM monitoring.dead_letters WHERE id = $1', [id])
  ctx.log.info({ deadLetter: id, subject: row.subject, by: caller.label }, 'dead letter replayed')
  return { id, subject: row.subject }
}
