import { startFlowApp } from '../../probe/src/testing/flow-app.ts'

/** The multi-step fixture app in a process of its own, so the bench measures only the checking side. */
const app = await startFlowApp()
process.stdout.write(`${app.url}\n`)
process.stdin.resume()
process.stdin.on('end', () => void app.close().then(() => process.exit(0)))
