// `guard agent` runs from one bundle of its own sources, built at start by esbuild in a short-lived
// child process, not through tsx: the TypeScript loader, its esbuild service and the rest of
// Guard's modules would double the agent's memory. The bundle holds only what the agent imports.
import { execFileSync } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Called in the child: bundles bin/agent-entry.ts into `outfile`. */
export async function buildAgentBundle(outfile) {
  const esbuild = await import('esbuild')
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL('./agent-entry.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // systeminformation is CommonJS and requires Node's modules; an ES bundle needs a require.
    banner: {
      js: "import { createRequire as __guardRequire } from 'node:module'; const require = __guardRequire(import.meta.url);",
    },
  })
}

export async function runAgentBundle() {
  const outfile = join(tmpdir(), `guard-agent-${process.pid}.mjs`)
  const self = pathToFileURL(fileURLToPath(import.meta.url)).href
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `await (await import(${JSON.stringify(self)})).buildAgentBundle(process.argv[1])`,
      outfile,
    ],
    { stdio: 'inherit' },
  )
  try {
    await import(pathToFileURL(outfile).href)
  } finally {
    await rm(outfile, { force: true })
  }
}
