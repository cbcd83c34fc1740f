import { spawnSync } from 'node:child_process'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * Node flags for the agent's process: `guard agent install` puts them on the unit's command line
 * and bench/agent starts the agent with them. V8's lite mode runs JavaScript in its interpreter
 * only and favours size over speed, so neither the optimising compilers' machine code nor the
 * code they produce is paged in (about 6 MB of the agent's RSS, README "Devices and the agent");
 * the agent runs a few milliseconds of JavaScript per interval, where compiling never paid off.
 * Lite mode turns WebAssembly off, which the agent does not use; `--no-expose-wasm` says so,
 * silencing V8's warning about it. `--expose-gc`: see inventoryGarbageCollector.
 */
export const AGENT_NODE_FLAGS = ['--lite-mode', '--no-expose-wasm', '--expose-gc'] as const

/**
 * AGENT_NODE_FLAGS as the Node at `execPath` takes them. Node 24's V8 has no `--expose-wasm` any
 * more (nor the warning it silenced) and refuses to start when given it, so a unit written for
 * Node 20 would never start there: asked of that Node itself, once, when the unit is written.
 */
export function agentNodeFlags(execPath: string = process.execPath): string[] {
  const wasmFlagKnown = spawnSync(execPath, ['--no-expose-wasm', '-e', ''], { stdio: 'ignore' }).status === 0
  return AGENT_NODE_FLAGS.filter((flag) => wasmFlagKnown || flag !== '--no-expose-wasm')
}

/**
 * Lite mode can only be chosen when Node starts. An agent started without it (`guard agent` by
 * hand) turns off what V8 lets a running process turn off before the agent's code gets hot: the
 * optimising and baseline compilers, compiled regular expressions, and the young generation's
 * growth (V8 would double it up to 16 MB for each inventory's burst of objects, and keep it).
 * Returns whether it did.
 */
export function approximateLiteMode(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.includes('--lite-mode')) return false
  for (const flag of ['--no-opt', '--no-sparkplug', '--regexp-interpret-all', '--semi-space-growth-factor=1']) {
    setFlagsFromString(flag)
  }
  return true
}

type GarbageCollector = (options: { type: 'major'; execution: 'async' }) => Promise<void>

/**
 * Gives back the memory an inventory used. Its few thousand objects are garbage once it is in the
 * spool, but an agent allocates so little between inventories that V8 would collect them only
 * after a minute or more (measured: ~5 MB of RSS on average with an inventory every 20 s). V8's
 * `gc` (the `--expose-gc` flag; turned on here for an agent started without it) runs a full
 * collection in a task of its own, once per inventory.
 */
export function inventoryGarbageCollector(): () => void {
  const exposed = (globalThis as { gc?: GarbageCollector }).gc
  if (!exposed) setFlagsFromString('--expose-gc')
  const gc: GarbageCollector = exposed ?? runInNewContext('gc')
  return () => {
    gc({ type: 'major', execution: 'async' }).catch(() => {})
  }
}
