import { GuardError, type MonitorTarget, monitorTarget } from '@guard/shared'
import { httpOptionsView, pickHttpOptions } from '../monitors/http-options.ts'
import type { MonitorRecord } from '../monitors/schemas.ts'
import { type RegistryConfig, registryConfigOf, registryProtocolOf, splitRegistryConfig } from './registry-protocols.ts'
import type { ProtocolConfig, ServiceConfig, ServiceConfigView, ServiceProtocol } from './schemas.ts'

const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)

/** How a service's protocol and configuration become the probe's target (credentials apart). */
function targetOf(protocol: ServiceProtocol, serviceConfig: ServiceConfig & { host: string }): unknown {
  const registered = registryProtocolOf(protocol)
  if (registered) return splitRegistryConfig(registered, serviceConfig as RegistryConfig).target
  const config = serviceConfig as Partial<ProtocolConfig> & { host: string }
  switch (protocol) {
    case 'http':
    case 'https': {
      const port = config.port ? `:${config.port}` : ''
      return {
        kind: 'http',
        url: `${protocol}://${bracketed(config.host)}${port}${config.path ?? '/'}`,
        ...pickHttpOptions(config),
        method: config.method ?? 'GET',
      }
    }
    case 'tcp':
      return { kind: 'tcp', host: config.host, port: config.port }
    case 'dns':
      return {
        kind: 'dns',
        hostname: config.host,
        recordType: config.recordType ?? 'A',
        ...(config.expected === undefined ? {} : { expected: config.expected }),
        ...(config.server === undefined ? {} : { server: config.server }),
      }
    case 'tls':
      return {
        kind: 'tls',
        host: config.host,
        ...(config.port === undefined ? {} : { port: config.port }),
        ...(config.warnDays === undefined ? {} : { warnDays: config.warnDays }),
      }
    case 'icmp':
      return { kind: 'icmp', host: config.host, ...(config.count === undefined ? {} : { count: config.count }) }
  }
}

/** The probe target of a service; a 400 naming protocolConfig for what the probe could not run. */
export function serviceTarget(protocol: ServiceProtocol, config: ServiceConfig & { host: string }) {
  if (protocol === 'tcp' && config.port === undefined) {
    throw new GuardError('VALIDATION_ERROR', 'protocolConfig.port: a tcp service needs a port')
  }
  const parsed = monitorTarget.safeParse(targetOf(protocol, config))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new GuardError('VALIDATION_ERROR', `protocolConfig: ${issue?.path.join('.') || 'target'} ${issue?.message}`)
  }
  return parsed.data
}

/** The secrets a service's configuration carries, to be sealed apart from its target. */
export function serviceSecrets(protocol: ServiceProtocol, config: ServiceConfig) {
  const registered = registryProtocolOf(protocol)
  return registered ? splitRegistryConfig(registered, config as RegistryConfig).secrets : undefined
}

/** The spec's protocolConfig of a stored target, with the options set and never the credentials. */
export function protocolConfigOf(monitor: MonitorRecord): ServiceConfigView {
  const target: MonitorTarget = monitor.target
  switch (target.kind) {
    case 'http': {
      const url = new URL(target.url)
      return {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        ...(url.port ? { port: Number(url.port) } : {}),
        path: `${url.pathname}${url.search}`,
        ...httpOptionsView(target),
        ...(monitor.isApi ? { isApi: true } : {}),
        ...(monitor.authType === 'none' ? {} : { authType: monitor.authType, credentialsSet: monitor.credentialsSet }),
      }
    }
    case 'tcp':
      return { host: target.host, port: target.port }
    case 'dns': {
      const { hostname, kind: _kind, ...options } = target
      return { host: hostname, ...options }
    }
    case 'tls':
    case 'icmp': {
      const { kind: _kind, ...options } = target
      return options
    }
    default: {
      const registered = registryProtocolOf(target.kind)
      if (!registered) throw new Error(`${target.kind} is not a protocol of the registry`)
      return registryConfigOf(registered, target, monitor.credentialsSet)
    }
  }
}
