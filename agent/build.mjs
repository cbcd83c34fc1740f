// The device agent ships as one file: dist/guard-agent.mjs, every module it runs bundled by
// esbuild, so a host needs Node and that file, not the repository and its node_modules (README
// "Devices and the agent"). Plain JavaScript, not TypeScript: bin/guard.mjs loads it before (and
// instead of) the TypeScript loader.
//
//   node agent/build.mjs          dist/guard-agent.mjs, its .sha256, and a stamp of its inputs
//   node --import tsx agent/build.mjs --sea
//       also dist/guard-agent-<platform>-<arch>, a single executable of the Node running the
//       build (postject, from npm, injects the agent)
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const AGENT_BUNDLE = join(ROOT, 'dist', 'guard-agent.mjs')
const STAMP = join(ROOT, 'dist', '.guard-agent.stamp.json')
const LOCK_FILE = join(ROOT, 'package-lock.json')
const ENTRY = join(ROOT, 'bin', 'agent-entry.ts')
/** Postject's fuse, the one Node's SEA loader looks for (nodejs.org/api/single-executable-applications.html). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'
const POSTJECT = 'postject@1.0.0-alpha.6'

/**
 * The agent imports one function and a few types from @guard/shared's index, which re-exports
 * the stores, the bus and fastify; marked free of side effects, the index brings only what is
 * used (3.7 MB of bundle without this, 0.6 MB with it, and none of it loaded at start).
 */
const sharedIndexIsPure = {
  name: 'shared-index-is-pure',
  setup(build) {
    build.onResolve({ filter: /^@guard\/shared$/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      })
      return { ...resolved, sideEffects: false }
    })
  },
}

/**
 * Bundles the agent in memory. `esm` is the shipped file; `cjs` feeds a single executable, whose
 * embedded script Node runs as CommonJS. Returns the code and the files esbuild read.
 */
export async function bundleAgent({ format = 'esm' } = {}) {
  const esbuild = await import('esbuild')
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    absWorkingDir: ROOT,
    outfile: join(ROOT, 'dist', format === 'esm' ? 'guard-agent.mjs' : 'guard-agent.cjs'),
    write: false,
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    plugins: [sharedIndexIsPure],
    // systeminformation and pino are CommonJS and require Node's modules; an ES module has no require.
    ...(format === 'esm'
      ? {
          banner: {
            js: "import { createRequire as __guardRequire } from 'node:module'; const require = __guardRequire(import.meta.url);",
          },
        }
      : {}),
  })
  return { code: Buffer.from(result.outputFiles[0].contents), inputs: Object.keys(result.metafile.inputs).sort() }
}

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

/**
 * What the bundle was built from, as the size and time of every input plus the lock file's hash
 * (npm may install a new version with old file times). Stat only: `guard agent` checks it at start.
 */
function inputsDigest(inputs) {
  const hash = createHash('sha256').update(readFileSync(LOCK_FILE))
  for (const input of inputs) {
    const path = join(ROOT, input)
    if (!existsSync(path)) return undefined
    const { size, mtimeMs } = statSync(path)
    hash.update(`${input}\0${size}\0${mtimeMs}\n`)
  }
  return hash.digest('hex')
}

/** Whether dist/guard-agent.mjs was built from the sources and packages as they are now. */
export function agentBundleIsFresh() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'))
    return existsSync(AGENT_BUNDLE) && stamp.digest === inputsDigest(stamp.inputs)
  } catch {
    return false
  }
}

/** Writes through a file of its own and a rename, so a concurrent build or reader never sees half a file. */
async function writeAtomically(path, contents, mode = 0o644) {
  const partial = `${path}.${process.pid}.partial`
  await writeFile(partial, contents, { mode })
  await rename(partial, path)
}

/** Builds dist/guard-agent.mjs, dist/guard-agent.mjs.sha256 (sha256sum's format) and the stamp. */
export async function writeAgentBundle() {
  const { code, inputs } = await bundleAgent()
  // Taken from the files as they were read: a source saved during the build makes the stamp stale.
  const digest = inputsDigest(inputs)
  await mkdir(dirname(AGENT_BUNDLE), { recursive: true })
  await writeAtomically(AGENT_BUNDLE, code)
  await writeAtomically(`${AGENT_BUNDLE}.sha256`, `${sha256(code)}  guard-agent.mjs\n`)
  await writeAtomically(STAMP, `${JSON.stringify({ digest, inputs })}\n`)
  return { path: AGENT_BUNDLE, bytes: code.length, sha256: sha256(code) }
}

/**
 * The bundle `guard agent` runs from the repository, rebuilt when a source changed. The build runs
 * in a child process, so esbuild never loads into the agent's own (memory-sized) process.
 */
export function ensureAgentBundle() {
  if (!agentBundleIsFresh()) {
    execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ['ignore', 'ignore', 'inherit'] })
  }
  return AGENT_BUNDLE
}

/**
 * A single executable: this Node's binary with the agent's CommonJS bundle injected. Node reads
 * `execArgv` from the blob since 24.6 (so the agent runs in lite mode); older ones ignore it, and
 * the agent turns off what it can at start (approximateLiteMode).
 */
export async function writeAgentExecutable(flags) {
  const dir = join(ROOT, 'dist', 'sea')
  await mkdir(dir, { recursive: true })
  const { code } = await bundleAgent({ format: 'cjs' })
  await writeFile(join(dir, 'guard-agent.cjs'), code)
  const config = {
    main: join(dir, 'guard-agent.cjs'),
    output: join(dir, 'guard-agent.blob'),
    disableExperimentalSEAWarning: true,
    execArgv: flags,
  }
  await writeFile(join(dir, 'sea-config.json'), JSON.stringify(config))
  execFileSync(process.execPath, ['--experimental-sea-config', join(dir, 'sea-config.json')], { stdio: 'inherit' })
  const output = join(ROOT, 'dist', `guard-agent-${process.platform}-${process.arch}`)
  await rm(output, { force: true })
  copyFileSync(process.execPath, output)
  execFileSync('npx', ['--yes', POSTJECT, output, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await writeAtomically(`${output}.sha256`, `${sha256(await readFile(output))}  ${relative(dirname(output), output)}\n`)
  return { path: output, bytes: (await stat(output)).size }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await writeAgentBundle()
  process.stdout.write(`${relative(process.cwd(), built.path)}: ${built.bytes} bytes, sha256 ${built.sha256}\n`)
  if (process.argv.includes('--sea')) {
    // TypeScript: `--sea` runs under tsx (`node --import tsx agent/build.mjs --sea`), agent starts never do.
    const { agentNodeFlags } = await import('./src/node-flags.ts')
    const sea = await writeAgentExecutable(agentNodeFlags())
    process.stdout.write(`${relative(process.cwd(), sea.path)}: ${sea.bytes} bytes\n`)
  }
}
