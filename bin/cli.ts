import { guard } from './dispatch.ts'

const code = await guard(process.argv.slice(2))
// A command that failed may have left a server or a socket open, which would keep the process
// alive; one that succeeded may be a server (`start`), which must.
if (code !== 0) process.exit(code)
