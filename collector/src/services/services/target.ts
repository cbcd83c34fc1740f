import { GuardError, type MonitorConfig, monitorTarget } from '@guard/shared'
import type { ProtocolConfig, ServiceProtocol, ServiceRecord } from './schemas.ts'

/** How a service's protocol and host/port/path become the probe's target. */
function targetOf(protocol: ServiceProtocol, config: ProtocolConfig): unknown {
  switch (protocol) {
    case 'http':
    case 'https': {
      const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host
      const port = config.port ? `:${config.port}` : ''
      return { kind: 'http', url: `${protocol}://${host}${port}${config.path ?? '/'}`, method: 'GET' }
    }
    case 'tcp':
      return { kind: 'tcp', host: config.host, port: config.port }
    case 'dns':
      return { kind: 'dns', hostname: config.host, recordType: 'A' }
    case 'tls':
      return config.port ? { kind: 'tls', host: config.host, port: config.port } : { kind: 'tls', host: config.host }
    case 'icmp':
      return { kind: 'icmp', host: config.host }
  }
}

/** The probe target of a service; refuses with a 400 naming protocolConfig what the probe could not run. */
export function serviceTarget(protocol: ServiceProtocol, config: ProtocolConfig): MonitorConfig['target'] {
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

export function serviceMonitorConfig(service: ServiceRecord): MonitorConfig {
  return {
    v: 1,
    id: service.id,
    organizationId: service.organizationId,
    target: serviceTarget(service.protocol, service.protocolConfig),
    intervalSeconds: service.checkInterval,
    timeoutSeconds: service.timeout,
    locations: service.locations,
    enabled: service.enabled,
  }
}
