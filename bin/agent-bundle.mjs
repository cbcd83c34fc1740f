// `guard agent` runs from one bundle built from the sources at start (esbuild, a few hundred ms),
// not through tsx: the TypeScript loader and its esbuild service alone would double the agent's
// memory. The bundle holds only what the agent imports.
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export async function runAgentBundle() {
  const esbuild = await import('esbuild')
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL('./agent-entry.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // systeminformation is CommonJS and requires Node's modules; an ES bundle needs a require.
    banner: {
      js: "import { createRequire as __guardRequire } from 'node:module'; const require = __guardRequire(import.meta.url);",
    },
  })
  await esbuild.stop()
  const file = join(tmpdir(), `guard-agent-${process.pid}.mjs`)
  await writeFile(file, result.outputFiles[0].contents, { mode: 0o600 })
  try {
    await import(pathToFileURL(file).href)
  } finally {
    await rm(file, { force: true })
  }
}
