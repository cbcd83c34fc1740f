import { chmodSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const ignoreVanished = (change: () => void) => {
  try {
    change()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/**
 * Makes every directory under `root` (and `root`) 0700 and every file 0600, for a writer whose
 * modes the process umask does not reach. Symbolic links are left alone (chmod would follow them).
 */
export function makeTreePrivate(root: string): void {
  chmodSync(root, 0o700)
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name)
    if (entry.isDirectory()) ignoreVanished(() => chmodSync(path, 0o700))
    else if (entry.isFile()) ignoreVanished(() => chmodSync(path, 0o600))
  }
}
