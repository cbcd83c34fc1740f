import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

let source: Promise<string> | undefined

/**
 * The script process's code as one CommonJS bundle, built once per process. A bundle rather than
 * the TypeScript sources through tsx: tsx starts esbuild as a child process and a loader thread,
 * which the script process's permission model forbids, and reads sources all over the repository.
 * playwright-core stays outside (it reads its own files), found through NODE_PATH.
 */
export function scriptProcessSource(): Promise<string> {
  source ??= build({
    entryPoints: [fileURLToPath(new URL('./script-process.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    external: ['playwright-core'],
  }).then((result) => {
    const text = result.outputFiles[0]?.text
    if (!text) throw new Error('esbuild produced no script process bundle')
    return text
  })
  return source
}

/** The node_modules directory playwright-core lives in, for the script process's NODE_PATH. */
export const playwrightModules = (): string =>
  dirname(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')))
