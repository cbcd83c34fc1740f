import { hkdfSync, randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const FILE = 'secret.key'

/**
 * GUARD_SECRET_KEY when set; otherwise the key generated on the first start and kept in
 * `<data dir>/secret.key` (mode 0600). Replicas sharing one database must share the key, so
 * distributed deployments set the variable.
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

export interface Secrets {
  /** AES-256-GCM key for signing keys at rest. */
  keyEncryption: Buffer
  /** HMAC-SHA256 key for session and CSRF cookies. */
  cookieSigning: Buffer
}

/** One secret, separate keys per purpose, so no key ever serves two algorithms. */
export function deriveSecrets(secretKey: string): Secrets {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', secretKey, '', `guard identity ${purpose}`, 32))
  return { keyEncryption: derive('signing keys'), cookieSigning: derive('cookies') }
}
