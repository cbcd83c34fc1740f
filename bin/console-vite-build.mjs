// Vite's build of the web console, run by ensureConsoleBuild() in a process of its own: the
// bundler's worker threads and its peak memory (some 400 MB) leave with this process instead of
// staying in the Guard process that asked for the build.
import { build } from 'vite'

const [configFile, outDir] = process.argv.slice(2)
await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
