import { guard } from './dispatch.ts'

// An exit code, not process.exit(): `start` and the servers keep the process alive after it resolves.
process.exitCode = await guard(process.argv.slice(2))
