import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'

let source: string | undefined

/**
 * The check thread's code as one CommonJS bundle, built once per process. A bundle rather than
 * the TypeScript sources through tsx: each thread would otherwise start its own loader and load
 * Guard's shared modules, about 60 MB per thread; the bundle holds only the checkers.
 */
export function checkWorkerSource(): string {
  source ??= buildSync({
    entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  }).outputFiles[0]?.text
  if (!source) throw new Error('esbuild produced no check worker bundle')
  return source
}
