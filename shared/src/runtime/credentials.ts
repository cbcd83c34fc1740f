import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface Credentials {
  identityUrl?: string
  collectorUrl?: string
  /** The password only when generated (GUARD_ADMIN_PASSWORD is never saved or printed). */
  admin?: { email: string; password?: string }
  apiKey?: string
  /** Bearer token of identity's admin API, used by `guard identity users|orgs|clients|keys|audit`. */
  adminToken?: string
}

export const credentialsPath = (dataDir: string) => join(dataDir, 'credentials.json')

export async function readCredentials(dataDir: string): Promise<Credentials> {
  try {
    return JSON.parse(await readFile(credentialsPath(dataDir), 'utf8')) as Credentials
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
}

/** Merges into `<data dir>/credentials.json`, readable by its owner only. */
export async function saveCredentials(dataDir: string, update: Credentials): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  const merged = { ...(await readCredentials(dataDir)), ...update }
  const path = credentialsPath(dataDir)
  await writeFile(path, `${JSON.stringify(merged, null, 2)}\n`, { mode: 0o600 })
  await chmod(path, 0o600)
}
