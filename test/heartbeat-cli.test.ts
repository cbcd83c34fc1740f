import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { report } from '../bin/cli-kit.ts'
import { runHeartbeat } from '../bin/commands/heartbeat.ts'
import { guard } from '../bin/dispatch.ts'

/** `guard heartbeat`, in-process, against a local receiver standing in for the ping endpoints. */
describe('guard heartbeat', () => {
  let server: Server
  let base: string
  const pings: Array<{ path: string; rid: string | null; body: string }> = []
  let status = 200

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const url = new URL(request.url!, 'http://x')
        pings.push({ path: url.pathname, rid: url.searchParams.get('rid'), body: Buffer.concat(chunks).toString() })
        response.statusCode = status
        response.end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping/tok`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const run = async (argv: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) }
    // As dispatch runs it, with the output collected here (dispatch hands commands no Io).
    const code = await runHeartbeat(argv, {}, io).catch((error: unknown) => report(error, 'heartbeat', io, false))
    return { code, stdout: out.join(''), stderr: err.join('') }
  }

  it('pings start, runs the command with its output passing through, then pings its exit code with the output', async () => {
    pings.length = 0
    const result = await run([
      '--url',
      base,
      '--',
      process.execPath,
      '-e',
      'console.log("dumped 3 tables"); console.error("warning: slow"); process.exit(3)',
    ])
    expect(result.code).toBe(3)
    expect(result.stdout).toContain('dumped 3 tables')
    expect(result.stderr).toContain('warning: slow')
    expect(pings.map((ping) => ping.path)).toEqual(['/ping/tok/start', '/ping/tok/3'])
    expect(pings[0]!.rid).toBe(pings[1]!.rid)
    expect(pings[1]!.body).toContain('dumped 3 tables')
    expect(pings[1]!.body).toContain('warning: slow')
  })

  it('pings 0 for a success, skips the start with --no-start, and keeps the given rid', async () => {
    pings.length = 0
    const result = await run(['--url', base, '--no-start', '--rid', 'nightly', '--', process.execPath, '-e', ''])
    expect(result.code).toBe(0)
    expect(pings).toEqual([{ path: '/ping/tok/0', rid: 'nightly', body: '' }])
  })

  it('still runs the job when the ping URL refuses, and says so on stderr', async () => {
    pings.length = 0
    status = 404
    const result = await run(['--url', base, '--', process.execPath, '-e', 'process.exit(0)'])
    status = 200
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('answered 404')
  })

  it('exits 127 for a command that does not exist, after pinging that code', async () => {
    pings.length = 0
    const result = await run(['--url', base, '--', 'guard-no-such-command-here'])
    expect(result.code).toBe(127)
    expect(pings.at(-1)?.path).toBe('/ping/tok/127')
  })

  it('refuses a missing URL or command as a usage error', async () => {
    expect((await run(['--', 'true'])).code).toBe(2)
    expect((await run(['--url', base])).stderr).toContain('missing the command')
    expect((await run(['--url', 'ftp://x', '--', 'true'])).stderr).toContain('http(s)')
    const out: string[] = []
    const help = await guard(['heartbeat', '--help'], { stdout: (text) => out.push(text), stderr: () => {} })
    expect([help, out.join('')]).toEqual([0, expect.stringContaining('Usage: guard heartbeat')])
    // The wrapped command's own options are its own, --help included.
    const wrapped = await run(['--url', base, '--no-start', '--', process.execPath, '--help'])
    expect([wrapped.code, wrapped.stdout]).toEqual([0, expect.stringContaining('node')])
  })
})
