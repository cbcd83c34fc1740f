// The entry point of dist/guard-agent.mjs (agent/build.mjs bundles from here): the agent and its
// enroll and install commands, with no TypeScript loader and none of Guard's other modules (README
// "Devices and the agent"). Its arguments follow the file, `node guard-agent.mjs enroll …`; a
// single executable's follow the executable, which Node puts in argv[1] too.
import { approximateLiteMode } from '@guard/agent'
import { processIo, report } from './cli-kit.ts'
import { runAgent } from './commands/agent.ts'

approximateLiteMode()
const args = process.argv.slice(2)
// Not top-level await: the single executable runs this bundled as CommonJS.
runAgent(args.filter((arg) => arg !== '--debug')).catch((error: unknown) => {
  // Exit, not exitCode: an agent that failed half-started may hold a timer or socket open.
  process.exit(report(error, 'agent', processIo, args.includes('--debug')))
})
