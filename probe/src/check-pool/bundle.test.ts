import { describe, expect, it } from 'vitest'
import { checkWorkerSource } from './bundle.ts'

describe('the check thread bundle', () => {
  it('builds with only the threaded checkers, none of the other protocols’ drivers', () => {
    const source = checkWorkerSource()
    expect(source).toContain('checkOnCheckThread')
    for (const driver of ['ssh2', 'mysql2', 'mongodb', '@grpc/grpc-js', 'mqtt-packet', 'imapflow']) {
      expect(source, driver).not.toContain(`node_modules/${driver}/`)
    }
  })
})
