import { existsSync } from 'node:fs'
import { createServer } from 'node:net'

/**
 * Tests that need a real server binary call this. A missing binary skips them with a loud
 * message, unless GUARD_REQUIRE_SERVICES=1 (set by CI), which turns the skip into a failure.
 */
export function serviceAvailable(name: string, candidates: string[]): string | undefined {
  const found = candidates.find((path) => existsSync(path))
  if (found) return found
  const message = `${name} not found (looked in ${candidates.join(', ')})`
  if (process.env.GUARD_REQUIRE_SERVICES === '1') {
    throw new Error(`${message}; GUARD_REQUIRE_SERVICES=1 makes this a failure`)
  }
  process.stderr.write(`\n!!! SKIPPING tests that need ${name}: ${message}\n\n`)
  return undefined
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port)
        else reject(new Error('no port assigned'))
      })
    })
  })
}
