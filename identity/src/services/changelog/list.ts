import type { Sql } from '@guard/shared'
import type { Deprecation } from '../docs/deprecations.ts'
import { CHANGELOG_LIMIT, type Changelog, type ChangelogEntry } from './schema.ts'

export interface ChangelogQuery {
  app?: string | undefined
  limit?: number | undefined
  appsOnly?: boolean | undefined
}

interface EntryRow {
  id: string
  name: string
  app: string
  app_color: string | null
  version: string
  created_time: Date
  content_md: string
  cover_image_url: string | null
}

/**
 * Release notes newest first, with one generated entry per deprecated operation so a client that
 * reads only the changelog still learns about a sunset. `appsOnly` lists the product slugs instead.
 */
export async function listChangelog(sql: Sql, query: ChangelogQuery, deprecations: Deprecation[]): Promise<Changelog> {
  const stored = await sql.query<EntryRow>(
    `SELECT id, name, app, app_color, version, created_time, content_md, cover_image_url
       FROM identity.changelog_entries WHERE ($1::text IS NULL OR app = $1)
      ORDER BY created_time DESC, id LIMIT $2`,
    [query.app ?? null, query.limit ?? CHANGELOG_LIMIT.default],
  )
  const generated = deprecations.map(deprecationEntry).filter((entry) => !query.app || entry.app === query.app)
  const entries = [...stored.rows.map(fromRow), ...generated]
    .sort((a, b) => Date.parse(b.createdTime) - Date.parse(a.createdTime) || a.id.localeCompare(b.id))
    .slice(0, query.limit ?? CHANGELOG_LIMIT.default)
  const lastUpdated = entries[0]?.createdTime
  if (query.appsOnly) {
    const apps = await sql.query<{ app: string }>('SELECT DISTINCT app FROM identity.changelog_entries ORDER BY app')
    const all = new Set([...apps.rows.map((row) => row.app), ...generated.map((entry) => entry.app)])
    return { apps: [...all].sort(), source: 'db', ...(lastUpdated ? { lastUpdated } : {}) }
  }
  return { entries, source: 'db', ...(lastUpdated ? { lastUpdated } : {}) }
}

const fromRow = (row: EntryRow): ChangelogEntry => ({
  id: row.id,
  name: row.name,
  app: row.app,
  ...(row.app_color ? { appColor: row.app_color } : {}),
  version: row.version,
  createdTime: row.created_time.toISOString(),
  contentMd: row.content_md,
  coverImageUrl: row.cover_image_url,
})

function deprecationEntry(deprecation: Deprecation): ChangelogEntry {
  const operation = `${deprecation.method} ${deprecation.path}`
  return {
    id: `deprecation:${operation}`,
    name: `Deprecated: ${operation}`,
    app: 'api',
    version: deprecation.version,
    createdTime: deprecation.announced.toISOString(),
    contentMd: [
      `\`${operation}\` is deprecated and will be removed after ${deprecation.sunset.toUTCString()}.`,
      deprecation.replacement ? `Use \`${deprecation.replacement}\` instead.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    coverImageUrl: null,
  }
}
