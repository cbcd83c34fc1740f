import { ensureConsoleBuild } from '../../bin/console-build.ts'

/** Vitest global setup: the console is built (or found up to date) once, before the test files run. */
export default async function setup(): Promise<void> {
  await ensureConsoleBuild({ log: () => {} })
}
