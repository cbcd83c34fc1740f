import { parseCollectorEnv, startCollector } from '@guard/collector'
import { closeAll, closeOnSignals, createLogger, openBus, redactConfig } from '@guard/shared'
import { ensureConsoleBuild } from '../console-build.ts'
import { announce } from './announce.ts'
import { openStores } from './open-stores.ts'
import { exitOnPreflightError, preflight } from './preflight.ts'
import { requireNats } from './requires-nats.ts'

export async function runCollector(env: NodeJS.ProcessEnv = process.env) {
  const config = parseCollectorEnv(env)
  requireNats('collector', config.NATS_URL)
  const lock = await preflight({
    command: 'collector',
    listeners: [{ name: 'collector', host: config.GUARD_COLLECTOR_HOST, port: config.GUARD_COLLECTOR_PORT }],
    dataDir: config.DATABASE_URL && config.CLICKHOUSE_URL ? undefined : config.GUARD_DATA_DIR,
  }).catch(exitOnPreflightError)
  const log = createLogger({ name: 'collector', level: config.LOG_LEVEL })
  log.info({ config: redactConfig(config) }, 'configuration')
  await ensureConsoleBuild({ log: (line) => log.info(line) }).catch((error: unknown) =>
    log.error({ err: error }, 'the web console could not be built; the API runs without it'),
  )
  const bus = await openBus(config, 'collector')
  const { sql, timeseries } = await openStores(config)
  const collector = await startCollector({ env: config, log, sql, timeseries, bus })
  await announce(
    config.GUARD_DATA_DIR,
    { console: { url: collector.consoleUrl }, collector: collector.url },
    collector.bootstrapApiKey ? { apiKey: collector.bootstrapApiKey } : {},
  )
  closeOnSignals(log, () =>
    closeAll(log, [
      ['collector', () => collector.close()],
      ['bus', () => bus.close()],
      ['timeseries', () => timeseries.close()],
      ['sql', () => sql.close()],
      ['data directory lock', async () => lock?.release()],
    ]),
  )
}
