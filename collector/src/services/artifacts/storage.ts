import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import type { CollectorContext } from '../../context.ts'

/**
 * Where browser run artifacts live. Keys are `<organization>/<check>/<run>/<name>`, made only
 * of ids and fixed names. Another backend (an object store) implements these five calls:
 * `append` may buffer the pieces of one key and write them at the last one, since pieces of a
 * key arrive in order from one probe.
 */
export interface ArtifactStorage {
  /** Starts (or replaces) the object at `key`. */
  put(key: string, data: Uint8Array): Promise<void>
  /** Adds the next piece to the object at `key`. */
  append(key: string, data: Uint8Array): Promise<void>
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>
  /** Removes every object whose key starts with `prefix/`. */
  delete(prefix: string): Promise<void>
  /** The run folders (`<organization>/<check>/<run>`) with when they were last written. */
  list(): Promise<{ prefix: string; modifiedAt: Date }[]>
}

/** The filesystem backend: files under `<dataDir>/artifacts/`. */
export function fileArtifactStorage(root: string): ArtifactStorage {
  const pathOf = (key: string) => {
    const path = join(root, key)
    // Keys come from ids the callers checked; a key that leaves the root is a bug, never served.
    if (relative(root, path).startsWith('..')) throw new Error(`artifact key ${key} leaves the store`)
    return path
  }
  return {
    async put(key, data) {
      await mkdir(dirname(pathOf(key)), { recursive: true })
      await rm(pathOf(key), { force: true })
      await appendFile(pathOf(key), data)
    },
    async append(key, data) {
      await mkdir(dirname(pathOf(key)), { recursive: true })
      await appendFile(pathOf(key), data)
    },
    async get(key) {
      return readFile(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined
        throw error
      })
    },
    async delete(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true })
    },
    async list() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return []
          throw error
        },
      )
      const runs = entries.filter(
        (entry) => entry.isDirectory() && relative(root, join(entry.parentPath, entry.name)).split(sep).length === 3,
      )
      return Promise.all(
        runs.map(async (entry) => {
          const path = join(entry.parentPath, entry.name)
          return { prefix: relative(root, path).split(sep).join('/'), modifiedAt: (await stat(path)).mtime }
        }),
      )
    },
  }
}

/** The key of one artifact of one run. */
export const artifactKey = (organizationId: string, monitorId: string, runId: string, name: string) =>
  `${organizationId}/${monitorId}/${runId}/${name}`

/** The collector's artifact store: the filesystem under `GUARD_DATA_DIR/artifacts`. */
export const artifactStorageOf = (ctx: Pick<CollectorContext, 'env'>): ArtifactStorage =>
  fileArtifactStorage(join(ctx.env.GUARD_DATA_DIR, 'artifacts'))
