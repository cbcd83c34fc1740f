import type { DeadLetter, Sql } from '@guard/shared'

/**
 * Keeps dead letters for operators; one already kept (the same message at the same consumer) is
 * left as it was. Returns the ones kept now.
 */
export async function recordDeadLetters(sql: Sql, letters: DeadLetter[]): Promise<DeadLetter[]> {
  if (letters.length === 0) return []
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO monitoring.dead_letters
       (id, source, subject, msg_id, consumer, reason, error, organization_id, delivery_count, data, dead_lettered_at)
     SELECT id, source, subject, msg_id, consumer, reason, error, organization_id, delivery_count,
            decode(data, 'base64'), dead_lettered_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::int[], $10::text[], $11::timestamptz[])
         AS letter(id, source, subject, msg_id, consumer, reason, error, organization_id, delivery_count, data,
                   dead_lettered_at)
     ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [
      letters.map((letter) => letter.id),
      letters.map((letter) => letter.source),
      letters.map((letter) => letter.subject),
      letters.map((letter) => letter.msgId ?? null),
      letters.map((letter) => letter.consumer),
      letters.map((letter) => letter.reason),
      letters.map((letter) => letter.error),
      letters.map((letter) => letter.organizationId ?? null),
      letters.map((letter) => letter.deliveryCount),
      letters.map((letter) => letter.data),
      letters.map((letter) => letter.deadLetteredAt),
    ],
  )
  const kept = new Set(rows.map((row) => row.id))
  return letters.filter((letter) => kept.has(letter.id))
}
