#!/usr/bin/env node
// Guard runs its TypeScript sources directly: tsx registers the loader, then the CLI takes over.
// The device agent is the exception: it runs bundled, to stay small (bin/agent-bundle.mjs).
if (process.argv[2] === 'agent') {
  const { runAgentBundle } = await import('./agent-bundle.mjs')
  await runAgentBundle()
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('./cli.ts')
}
