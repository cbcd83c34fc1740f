import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { AGENT_NODE_FLAGS, interpretOnlyFromNow } from './node-flags.ts'

describe('the agent node flags', () => {
  it('are accepted by this Node without a warning, and turn the JIT off', () => {
    // The unit would fail to start (or warn in the journal at every start) if Node refused them.
    const result = spawnSync(
      process.execPath,
      [...AGENT_NODE_FLAGS, '-e', 'process.stdout.write(typeof WebAssembly)'],
      {
        encoding: 'utf8',
      },
    )
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toBe('undefined')
  })

  it('leave a process already in lite mode as it is', () => {
    expect(interpretOnlyFromNow(['--lite-mode', '--no-expose-wasm'])).toBe(false)
  })
})
