import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { didYouMean, UsageError } from '../cli-kit.ts'

const benchDir = fileURLToPath(new URL('../../bench/', import.meta.url))
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli')

const available = () =>
  existsSync(benchDir)
    ? readdirSync(benchDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(`${benchDir}${entry.name}/run.ts`))
        .map((entry) => entry.name)
        .sort()
    : []

/**
 * Runs `bench/<name>/run.ts`, or every benchmark, each in a process of its own: an engine such as
 * chDB allows one data directory per process, and one benchmark's warm caches must not help another.
 */
export async function runBench(names: string[]): Promise<void> {
  const known = available()
  const unknown = names.find((name) => !known.includes(name))
  if (unknown !== undefined) {
    const hint = didYouMean(unknown, known) || ` (available: ${known.join(', ') || 'none'})`
    throw new UsageError(`unknown benchmark '${unknown}'${hint}`)
  }
  for (const name of names.length > 0 ? names : known) {
    process.stderr.write(`bench ${name}\n`)
    const code = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, [tsxCli, `${benchDir}${name}/run.ts`], { stdio: 'inherit' }).once('exit', resolve)
    })
    if (code !== 0) process.exit(code ?? 1)
  }
}
