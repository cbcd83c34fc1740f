#!/usr/bin/env node
// Guard runs its TypeScript sources directly: tsx registers the loader, then the CLI takes over.
// The device agent is the exception: it runs bundled, to stay small (bin/agent-bundle.mjs).
if (process.argv[2] === 'agent') {
  const { runAgentBundle } = await import('./agent-bundle.mjs')
  await runAgentBundle()
} else {
  // Everything Guard writes is its operator's alone: credentials, sealed secrets and the stores'
  // files, chDB's included (native code, files 0666 minus the umask), whatever the shell's umask.
  // Set before any file is made; PGlite's initdb files, which no umask reaches, get a chmod.
  process.umask(0o077)
  const { register } = await import('tsx/esm/api')
  register()
  await import('./cli.ts')
}
