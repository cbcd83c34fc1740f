import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { sshProtocol } from './ssh.ts'

describe('sshProtocol', () => {
  it('is a probe target with an optional pinned host key, without secrets, on port 22 by default', () => {
    const target = {
      kind: 'ssh',
      host: 'bastion.example.org',
      hostKeySha256: 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s',
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(sshProtocol.secretFields).toEqual([])
    expect(sshProtocol.defaultPort).toBe(22)
  })

  it('takes only the OpenSSH SHA256 fingerprint form', () => {
    const base = { kind: 'ssh', host: 'bastion.example.org' }
    const md5 = '16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48'
    expect(monitorTarget.safeParse({ ...base, hostKeySha256: md5 }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, hostKeySha256: 'SHA256:tooShort' }).success).toBe(false)
    expect(
      monitorTarget.safeParse({ ...base, hostKeySha256: 'uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s' }).success,
    ).toBe(false)
  })
})
