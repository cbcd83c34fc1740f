import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { GuardError } from '@guard/shared'
import { z } from 'zod'

export const MANIFEST = 'manifest.json'
/** Bumped when the layout of a backup changes; a restore refuses a format it does not know. */
export const BACKUP_FORMAT = 1

const migrationsOf = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url))

/** The migration folders of the code, by the service name each records in guard_migrations. */
export const migrationFolders = {
  postgres: {
    collector: migrationsOf('collector/migrations/postgres'),
    identity: migrationsOf('identity/migrations/postgres'),
  },
  clickhouse: { collector: migrationsOf('collector/migrations/clickhouse') },
} as const

const appliedMigration = z.object({ service: z.string(), name: z.string() })

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  guardVersion: z.string(),
  createdAt: z.iso.datetime(),
  migrations: z.object({ postgres: z.array(appliedMigration), clickhouse: z.array(appliedMigration) }),
  /** Every file of the backup but the manifest, by its path inside the backup, with its size and SHA-256. */
  files: z.record(z.string(), z.object({ bytes: z.number().int().nonnegative(), sha256: z.string() })),
})
export type Manifest = z.infer<typeof manifestSchema>
export type AppliedMigration = z.infer<typeof appliedMigration>

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export async function guardVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(migrationsOf('package.json'), 'utf8')) as { version: string }
  return pkg.version
}

export async function writeManifest(path: string, manifest: Manifest): Promise<void> {
  await writeFile(path, `${JSON.stringify(manifestSchema.parse(manifest), null, 2)}\n`, { mode: 0o600 })
}

export async function readManifest(path: string): Promise<Manifest> {
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new GuardError('VALIDATION_ERROR', `${path} is not a Guard backup manifest: ${(error as Error).message}`)
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `${path} is not a Guard backup manifest this version reads (format ${BACKUP_FORMAT})`,
    )
  }
  return parsed.data
}

/**
 * The migrations a backup's stores went through that this code does not have: a backup from a
 * newer Guard, whose tables this code would misread. Names only: the code's checksums are checked
 * at the restored Guard's first start, as for any database.
 */
export async function unknownMigrations(manifest: Manifest): Promise<string[]> {
  const known = async (folders: Record<string, string>) => {
    const names = new Set<string>()
    for (const [service, folder] of Object.entries(folders)) {
      for (const name of await readdir(folder)) names.add(`${service}/${name}`)
    }
    return names
  }
  const [postgres, clickhouse] = await Promise.all([
    known(migrationFolders.postgres),
    known(migrationFolders.clickhouse),
  ])
  return [
    ...manifest.migrations.postgres.filter((m) => !postgres.has(`${m.service}/${m.name}`)),
    ...manifest.migrations.clickhouse.filter((m) => !clickhouse.has(`${m.service}/${m.name}`)),
  ].map((m) => `${m.service}/${m.name}`)
}
