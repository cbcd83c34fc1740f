import type { Sql } from '@guard/shared'
import { GuardError } from '@guard/shared'
import { z } from 'zod'
import { changelogEntry } from './schema.ts'

/** Publishes release notes; an entry whose id exists is replaced, so an import can be re-run. */
export async function addChangelogEntries(sql: Sql, input: unknown): Promise<{ added: number }> {
  const parsed = z.array(changelogEntry).safeParse(input)
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'entries'}: ${issue.message}`)
      .join('; ')
    throw new GuardError('VALIDATION_ERROR', detail)
  }
  await sql.transaction(async (tx) => {
    for (const entry of parsed.data) {
      await tx.query(
        `INSERT INTO identity.changelog_entries (id, name, app, app_color, version, created_time, content_md, cover_image_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, app = EXCLUDED.app, app_color = EXCLUDED.app_color,
           version = EXCLUDED.version, created_time = EXCLUDED.created_time, content_md = EXCLUDED.content_md,
           cover_image_url = EXCLUDED.cover_image_url`,
        [
          entry.id,
          entry.name,
          entry.app,
          entry.appColor ?? null,
          entry.version,
          entry.createdTime,
          entry.contentMd,
          entry.coverImageUrl ?? null,
        ],
      )
    }
  })
  return { added: parsed.data.length }
}
