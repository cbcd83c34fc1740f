import { parseProbeEnv, startProbe } from '@guard/probe'
import { closeAll, closeOnSignals, createLogger, openBus, redactConfig } from '@guard/shared'
import { requireNats } from './requires-nats.ts'

export async function runProbe(location: string | undefined, env: NodeJS.ProcessEnv = process.env) {
  const config = parseProbeEnv(location ? { ...env, GUARD_PROBE_LOCATION: location } : env)
  requireNats('probe', config.NATS_URL)
  const log = createLogger({ name: 'probe', level: config.LOG_LEVEL })
  log.info({ config: redactConfig(config) }, 'configuration')
  const bus = await openBus(config, `probe-${config.GUARD_PROBE_LOCATION}`)
  const probe = await startProbe({ env: config, log, bus })
  process.stdout.write(`probe: ${probe.location}\n`)
  closeOnSignals(log, () =>
    closeAll(log, [
      ['probe', () => probe.close()],
      ['bus', () => bus.close()],
    ]),
  )
}
