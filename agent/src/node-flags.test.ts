import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { agentNodeFlags, approximateLiteMode } from './node-flags.ts'

describe('the agent node flags', () => {
  it('are accepted by this Node without a warning, turn the JIT off and expose gc', () => {
    // The unit would fail to start (or warn in the journal at every start) if Node refused them.
    const script = 'process.stdout.write(typeof WebAssembly + " " + typeof gc)'
    const result = spawnSync(process.execPath, [...agentNodeFlags(), '-e', script], { encoding: 'utf8' })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toBe('undefined function')
  })

  it('leave out --no-expose-wasm for a Node that refuses it', () => {
    // Node 24 exits at once on it; /bin/false stands for that Node here.
    expect(agentNodeFlags('/bin/false')).toEqual(['--lite-mode', '--expose-gc'])
  })

  it('leave a process already in lite mode as it is', () => {
    expect(approximateLiteMode(['--lite-mode', '--no-expose-wasm'])).toBe(false)
  })
})
