import type { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import {
  DEAD_LETTER_COLUMNS,
  type DeadLetterRow,
  type DeadLetterView,
  listDeadLettersInput,
  type PlatformOperator,
  toDeadLetterView,
} from './schemas.ts'

/** The newest dead letters of every organization, for the platform's operator. */
export async function listDeadLetters({
  ctx,
  input,
}: {
  ctx: CollectorContext
  caller: PlatformOperator
  input: z.input<typeof listDeadLettersInput>
}): Promise<{ deadLetters: DeadLetterView[]; total: number }> {
  const { source, limit } = listDeadLettersInput.parse(input)
  const [{ rows }, counted] = await Promise.all([
    ctx.sql.query<DeadLetterRow>(
      `SELECT ${DEAD_LETTER_COLUMNS} FROM monitoring.dead_letters
        WHERE ($1::text IS NULL OR source = $1) ORDER BY dead_lettered_at DESC, id LIMIT $2`,
      [source ?? null, limit],
    ),
    ctx.sql.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM monitoring.dead_letters WHERE ($1::text IS NULL OR source = $1)',
      [source ?? null],
    ),
  ])
  return { deadLetters: rows.map(toDeadLetterView), total: counted.rows[0]?.total ?? 0 }
}
