import { setFlagsFromString } from 'node:v8'

/**
 * Node flags for the agent's process: `guard agent install` puts them on the unit's command line
 * and bench/agent starts the agent with them. V8's lite mode runs JavaScript in its interpreter
 * only, so neither the optimising compilers' machine code nor the code they produce is paged in
 * (about 6 MB of the agent's RSS, README "Devices and the agent"); the agent runs a few
 * milliseconds of JavaScript per interval, where compiling never paid off. Lite mode turns
 * WebAssembly off, which the agent does not use; `--no-expose-wasm` says so, silencing V8's
 * warning about it.
 */
export const AGENT_NODE_FLAGS = ['--lite-mode', '--no-expose-wasm'] as const

/**
 * Lite mode can only be chosen when Node starts. An agent started without it (`guard agent` by
 * hand) turns off what V8 lets a running process turn off before the agent's code gets hot: the
 * optimising and baseline compilers and compiled regular expressions. Returns whether it did.
 */
export function interpretOnlyFromNow(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.includes('--lite-mode')) return false
  for (const flag of ['--no-opt', '--no-sparkplug', '--regexp-interpret-all']) setFlagsFromString(flag)
  return true
}
