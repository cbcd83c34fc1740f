import { hkdfSync, randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const FILE = 'secret.key'

/**
 * GUARD_SECRET_KEY when set; otherwise the key generated on the first start and kept in
 * `<data dir>/secret.key` (mode 0600). Every process sharing one database (identity replicas, the
 * collector) must share the key, so distributed deployments set the variable.
 */
export async function resolveSecretKey(env: { GUARD_SECRET_KEY?: string | undefined; GUARD_DATA_DIR: string }) {
  if (env.GUARD_SECRET_KEY) return env.GUARD_SECRET_KEY
  const path = join(env.GUARD_DATA_DIR, FILE)
  try {
    return (await readFile(path, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(env.GUARD_DATA_DIR, { recursive: true })
  const generated = randomBytes(32).toString('base64url')
  // 'wx' fails when another process created the file first; its key then wins.
  try {
    await writeFile(path, `${generated}\n`, { mode: 0o600, flag: 'wx' })
    await chmod(path, 0o600)
    return generated
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return (await readFile(path, 'utf8')).trim()
  }
}

/** One secret, a separate 32-byte key per purpose (HKDF-SHA256), so no key ever serves two uses. */
export function derivePurposeKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, '', purpose, 32))
}
