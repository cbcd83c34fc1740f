import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { grpcProtocol } from './grpc.ts'

const problemsOf = (config: Parameters<NonNullable<typeof grpcProtocol.problems>>[0]) => grpcProtocol.problems!(config)

describe('grpcProtocol', () => {
  it('is a probe target with its options and its write-only bearer token', () => {
    const target = {
      kind: 'grpc',
      host: 'orders.internal.example',
      port: 50051,
      service: 'shop.Orders',
      tls: true,
      ignoreTlsErrors: true,
      metadata: { 'x-tenant': 'acme' },
      secrets: { bearerToken: 'token' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(grpcProtocol.secretFields).toEqual(['bearerToken'])
  })

  it('rejects metadata keys and values gRPC cannot carry, and an oversized service name', () => {
    const base = { kind: 'grpc', host: 'example.org', port: 50051 }
    expect(monitorTarget.safeParse({ ...base, metadata: { 'x tenant': 'a' } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, metadata: { ':path': '/x' } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, metadata: { 'x-tenant': 'line\nbreak' } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, metadata: { 'x-tenant': 'café' } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, service: 's'.repeat(201) }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, secrets: { bearerToken: 'a\nb' } }).success).toBe(false)
  })

  it('needs a port without tls, and tls for ignoreTlsErrors', () => {
    expect(problemsOf({})).toEqual([[['port'], 'a plaintext gRPC check needs a port (with tls it defaults to 443)']])
    expect(problemsOf({ tls: true })).toEqual([])
    expect(problemsOf({ port: 50051, ignoreTlsErrors: true })).toEqual([[['ignoreTlsErrors'], 'needs tls']])
  })

  it('refuses metadata the probe sets, binary metadata and a key given twice', () => {
    expect(problemsOf({ port: 1, metadata: { Authorization: 'Bearer x' } })).toEqual([
      [
        ['metadata', 'Authorization'],
        'Authorization is set by the probe and cannot be given; give bearerToken instead, which is kept secret',
      ],
    ])
    expect(problemsOf({ port: 1, metadata: { 'grpc-timeout': '1S', 'trace-bin': 'AA==' } })).toEqual([
      [['metadata', 'grpc-timeout'], 'grpc-timeout is set by the probe and cannot be given'],
      [['metadata', 'trace-bin'], 'binary (-bin) metadata is not supported'],
    ])
    expect(problemsOf({ port: 1, metadata: { 'X-A': '1', 'x-a': '2' } })).toEqual([
      [['metadata', 'x-a'], 'x-a is given twice (keys are case-insensitive)'],
    ])
  })

  it('allows at most 20 metadata entries', () => {
    const metadata = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`x-${index}`, 'v']))
    expect(problemsOf({ port: 1, metadata })).toEqual([[['metadata'], 'at most 20 entries']])
  })
})
