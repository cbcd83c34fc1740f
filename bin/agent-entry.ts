// The agent's own entry point: bin/agent-bundle.mjs bundles it, so `guard agent` runs without
// the TypeScript loader and the rest of Guard (see README "Devices and the agent").
import { approximateLiteMode } from '@guard/agent'
import { ConfigError } from '@guard/shared/config-error'
import { runAgent } from './commands/agent.ts'

approximateLiteMode()
try {
  await runAgent(process.argv.slice(3))
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`${error.message}\n`)
  process.exit(78)
}
