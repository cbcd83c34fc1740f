#!/usr/bin/env node
// Guard runs its TypeScript sources directly: tsx registers the loader, then the CLI takes over.
// The device agent is the exception: it runs from its bundle, to stay small (agent/build.mjs),
// rebuilt into dist/ when a source changed and run as if started as `node dist/guard-agent.mjs …`.
if (process.argv[2] === 'agent') {
  const { ensureAgentBundle } = await import('../agent/build.mjs')
  const bundle = ensureAgentBundle()
  process.argv.splice(1, 2, bundle)
  const { pathToFileURL } = await import('node:url')
  await import(pathToFileURL(bundle).href)
} else {
  // Everything Guard writes is its operator's alone: credentials, sealed secrets and the stores'
  // files, chDB's included (native code, files 0666 minus the umask), whatever the shell's umask.
  // Set before any file is made; PGlite's initdb files, which no umask reaches, get a chmod.
  process.umask(0o077)
  const { register } = await import('tsx/esm/api')
  register()
  await import('./cli.ts')
}
