// The web console (collector/console) is built with Vite into collector/console/dist, which is not
// committed. `guard start`, `guard collector` and the test suite call ensureConsoleBuild(): it
// builds once and then only when a source file, the Vite config or an installed version changed
// (a stamp of their hashes sits in dist/), so `npm ci && npm start` serves a console on a fresh
// machine and later starts cost a hash of a few files.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../collector/console/', import.meta.url))
export const CONSOLE_DIST = join(ROOT, 'dist')
/** Files outside the console it imports: the collector's resource list and the brand it shares with identity. */
const SHARED_WITH_API = [
  join(ROOT, '../src/services/access/resources.ts'),
  fileURLToPath(new URL('../shared/brand/tokens.css', import.meta.url)),
  fileURLToPath(new URL('../shared/src/brand/logo.ts', import.meta.url)),
]
const STAMP = '.build-stamp'
const VITE_BUILD = fileURLToPath(new URL('./console-vite-build.mjs', import.meta.url))
const LOCK_FILE = fileURLToPath(new URL('../package-lock.json', import.meta.url))

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const files = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)])),
  )
  return files.flat().sort()
}

/** A hash of everything the build depends on: sources, config and the installed packages. */
async function sourceStamp() {
  const hash = createHash('sha256')
  const files = [
    join(ROOT, 'index.html'),
    join(ROOT, 'vite.config.ts'),
    ...(await filesUnder(join(ROOT, 'src'))),
    ...SHARED_WITH_API,
  ]
  for (const file of files) {
    hash.update(relative(ROOT, file))
    hash.update(await readFile(file))
  }
  // The lock file stands for the installed versions of Vite, Preact and uPlot.
  hash.update(await readFile(LOCK_FILE))
  return hash.digest('hex')
}

async function currentStamp(): Promise<string | undefined> {
  try {
    return (await readFile(join(CONSOLE_DIST, STAMP), 'utf8')).trim()
  } catch {
    return undefined
  }
}

function buildInChildProcess(configFile: string, outDir: string): Promise<void> {
  const child = spawn(process.execPath, [VITE_BUILD, configFile, outDir], { stdio: ['ignore', 'inherit', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the console build exited with ${signal ?? `code ${code}`}`)),
    )
  })
}

/**
 * Builds the console unless dist/ matches the sources. The build goes to a directory of its own
 * and is renamed into place, so a concurrent reader never sees half a build.
 * Returns whether it built.
 */
export async function ensureConsoleBuild({
  log = (line: string) => process.stderr.write(`${line}\n`),
}: {
  log?: (line: string) => void
} = {}): Promise<boolean> {
  const stamp = await sourceStamp()
  if ((await currentStamp()) === stamp && existsSync(join(CONSOLE_DIST, 'index.html'))) return false
  log('guard: building the web console (collector/console) …')
  const started = Date.now()
  const outDir = join(ROOT, `dist.tmp-${process.pid}-${Date.now()}`)
  try {
    await buildInChildProcess(join(ROOT, 'vite.config.ts'), outDir)
    await writeFile(join(outDir, STAMP), `${stamp}\n`)
    await rm(CONSOLE_DIST, { recursive: true, force: true })
    await mkdir(ROOT, { recursive: true })
    await rename(outDir, CONSOLE_DIST)
  } finally {
    await rm(outDir, { recursive: true, force: true })
  }
  log(`guard: web console built in ${Date.now() - started} ms`)
  return true
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await ensureConsoleBuild()
}
