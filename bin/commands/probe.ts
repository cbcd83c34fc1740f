import { parseProbeEnv, startProbe } from '@guard/probe'
import { closeAll, closeOnSignals, createLogger, openBus } from '@guard/shared'
import { requireNats } from './requires-nats.ts'

/** Port of /healthz and /metrics when GUARD_PROBE_METRICS_PORT is unset. */
const DEFAULT_METRICS_PORT = 9464

export async function runProbe(location: string | undefined, env: NodeJS.ProcessEnv = process.env) {
  const config = parseProbeEnv(location ? { ...env, GUARD_PROBE_LOCATION: location } : env)
  requireNats('probe', config.NATS_URL)
  const log = createLogger({ name: 'probe', level: config.LOG_LEVEL })
  // A probe starts even while NATS is away: it checks and keeps results in its outbox meanwhile.
  const bus = await openBus(config, `probe-${config.GUARD_PROBE_LOCATION}`, {
    connectInBackground: true,
    onError: (error, context) => log.warn({ err: error }, context),
  })
  const metricsPort = config.GUARD_PROBE_METRICS_PORT ?? DEFAULT_METRICS_PORT
  const probe = await startProbe({
    env: config,
    log,
    bus,
    ...(metricsPort > 0 ? { ops: { host: config.GUARD_PROBE_METRICS_HOST, port: metricsPort } } : {}),
  })
  process.stdout.write(`probe: ${probe.location}${probe.opsUrl ? ` (metrics ${probe.opsUrl}/metrics)` : ''}\n`)
  closeOnSignals(log, () =>
    closeAll(log, [
      ['probe', () => probe.close()],
      ['bus', () => bus.close()],
    ]),
  )
}
