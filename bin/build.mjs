#!/usr/bin/env node
// Bundles the guard command into dist/guard.mjs for container images, where running
// through tsx is an avoidable start-up cost. npm packages stay external; workspaces are inlined.
import { readFileSync } from 'node:fs'
import { build } from 'esbuild'

const workspaces = ['shared', 'probe', 'collector', 'identity', 'agent']
const external = new Set()
for (const folder of workspaces) {
  const manifest = JSON.parse(readFileSync(new URL(`../${folder}/package.json`, import.meta.url), 'utf8'))
  for (const name of Object.keys(manifest.dependencies ?? {})) if (!name.startsWith('@guard/')) external.add(name)
}

await build({
  entryPoints: [new URL('./cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/guard.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, 'chdb/*', 'pino-pretty'],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
})
process.stdout.write('built dist/guard.mjs\n')
