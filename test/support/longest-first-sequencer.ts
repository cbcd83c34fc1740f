import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Measured milliseconds per test file (test/support/file-durations.json, from a
 * `vitest run --reporter=json` of the whole suite). Vitest orders files longest first only from
 * its own cache of the last run, which a fresh clone has not: it then starts the largest files
 * first, and a three-minute end-to-end file dealt out last kept one of the two workers busy
 * alone at the end of the run.
 */
const MEASURED: Record<string, number> = JSON.parse(
  readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'),
) as Record<string, number>

/**
 * Failed files first, then longest first: from this machine's last run when Vitest has it,
 * otherwise from the committed measurements. A file neither knows (a new one) runs first, as
 * Vitest runs unknown files first: it may be a slow one.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const known = (file: TestSpecification) => {
      const path = relative(root, file.moduleId)
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)
      return { failed: cached?.failed ?? false, duration: cached?.duration ?? MEASURED[path] }
    }
    const estimates = new Map(files.map((file) => [file, known(file)]))
    return [...files].sort((a, b) => {
      const first = estimates.get(a)!
      const second = estimates.get(b)!
      if (first.failed !== second.failed) return first.failed ? -1 : 1
      return (second.duration ?? Number.POSITIVE_INFINITY) - (first.duration ?? Number.POSITIVE_INFINITY) || 0
    })
  }
}
