// The agent's own entry point: bin/agent-bundle.mjs bundles it, so `guard agent` runs without
// the TypeScript loader and the rest of Guard (see README "Devices and the agent").
import { approximateLiteMode } from '@guard/agent'
import { processIo, report } from './cli-kit.ts'
import { runAgent } from './commands/agent.ts'

approximateLiteMode()
const args = process.argv.slice(3)
try {
  await runAgent(args.filter((arg) => arg !== '--debug'))
} catch (error) {
  // Exit, not exitCode: an agent that failed half-started may hold a timer or socket open.
  process.exit(report(error, 'agent', processIo, args.includes('--debug')))
}
