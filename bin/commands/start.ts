import { parseCollectorEnv, startCollector } from '@guard/collector'
import { parseIdentityEnv, startIdentity } from '@guard/identity'
import { parseProbeEnv, startProbe } from '@guard/probe'
import { closeAll, closeOnSignals, createLogger, openBus, reachableUrl, redactConfig } from '@guard/shared'
import { ConfigError } from '@guard/shared/config-error'
import { ensureConsoleBuild } from '../console-build.ts'
import { announce } from './announce.ts'
import { serveControlSocket } from './backup/control-socket.ts'
import { makeBackup } from './backup/make-backup.ts'
import { scheduleBackups } from './backup/schedule-backups.ts'
import { openStores } from './open-stores.ts'
import { exitOnPreflightError, preflight } from './preflight.ts'

/**
 * Embedded mode: the three services share one bus, one relational store and one time-series
 * store in this process. With no server URLs configured these are the in-process bus, PGlite
 * and chDB under GUARD_DATA_DIR; the services cannot tell the difference.
 */
export async function runStart(env: NodeJS.ProcessEnv = process.env) {
  const identityEnv = parseIdentityEnv(env)
  const collectorEnv = parseCollectorEnv(env)
  const probeEnv = parseProbeEnv(env)
  const log = createLogger({ name: 'guard', level: collectorEnv.LOG_LEVEL })
  const dataDir = collectorEnv.GUARD_DATA_DIR
  const backupCron = collectorEnv.GUARD_BACKUP_CRON
  if (backupCron && !collectorEnv.GUARD_BACKUP_DIR) throw new ConfigError('GUARD_BACKUP_CRON needs GUARD_BACKUP_DIR')
  const probeMetricsPort = probeEnv.GUARD_PROBE_METRICS_PORT
  const lock = await preflight({
    command: 'start',
    listeners: [
      { name: 'identity', host: identityEnv.GUARD_IDENTITY_HOST, port: identityEnv.GUARD_IDENTITY_PORT },
      { name: 'collector', host: collectorEnv.GUARD_COLLECTOR_HOST, port: collectorEnv.GUARD_COLLECTOR_PORT },
      ...(probeMetricsPort
        ? [{ name: 'probe metrics', host: probeEnv.GUARD_PROBE_METRICS_HOST, port: probeMetricsPort }]
        : []),
    ],
    // credentials.json and secret.key live there even when both stores are servers.
    dataDir,
  }).catch(exitOnPreflightError)
  log.info({ config: redactConfig({ ...identityEnv, ...collectorEnv, ...probeEnv }) }, 'configuration')

  // Built once on a fresh checkout, then only when its sources change (README "Web console").
  await ensureConsoleBuild({ log: (line) => log.info(line) }).catch((error: unknown) =>
    log.error({ err: error }, 'the web console could not be built; the API runs without it'),
  )
  const bus = await openBus(collectorEnv, 'guard')
  const { sql, timeseries } = await openStores(collectorEnv)
  const identity = await startIdentity({ env: identityEnv, log: log.child({ service: 'identity' }), sql })
  const collector = await startCollector({
    // The collector accepts access tokens of the identity it runs beside, unless told otherwise,
    // and knows the location of the probe beside it before its first heartbeat.
    env: {
      ...collectorEnv,
      GUARD_IDENTITY_URL: collectorEnv.GUARD_IDENTITY_URL ?? identity.issuer,
      GUARD_LOCATIONS: [...new Set([...collectorEnv.GUARD_LOCATIONS, probeEnv.GUARD_PROBE_LOCATION])],
    },
    log: log.child({ service: 'collector' }),
    sql,
    timeseries,
    bus,
  })
  // Assistants get tokens for the MCP endpoints of the collector beside identity, at the address
  // its protected-resource metadata names (a wildcard listening address read as 127.0.0.1, as the
  // collector does), unless GUARD_MCP_RESOURCES or GUARD_COLLECTOR_PUBLIC_URL, shared with the collector, name them.
  if (!identity.mcpResourcesConfigured) identity.serveMcpResourcesOf(reachableUrl(collector.url))
  identity.showConsoleAt(collector.consoleUrl)
  const probe = await startProbe({
    env: probeEnv,
    log: log.child({ service: 'probe' }),
    bus,
    // Off unless asked for: one laptop process does not need a second metrics port.
    ...(probeMetricsPort ? { ops: { host: probeEnv.GUARD_PROBE_METRICS_HOST, port: probeMetricsPort } } : {}),
  })

  // `guard backup` asks this process, the only one that may read its PGlite and chDB.
  const backup = (to: string) => makeBackup({ dataDir, sql, timeseries }, to)
  // A data directory path too long for a Unix socket costs `guard backup` while running, not the start.
  const control = await serveControlSocket({ dataDir, log: log.child({ service: 'backup' }), backup }).catch(
    (error: unknown) => {
      log.warn({ err: error }, '`guard backup` cannot reach this process; it works while Guard is stopped')
      return undefined
    },
  )
  const scheduled =
    backupCron && collectorEnv.GUARD_BACKUP_DIR
      ? scheduleBackups({
          cron: backupCron,
          dir: collectorEnv.GUARD_BACKUP_DIR,
          keep: collectorEnv.GUARD_BACKUP_KEEP,
          log: log.child({ service: 'backup' }),
          backup,
        })
      : undefined

  await announce(
    dataDir,
    {
      console: { url: collector.consoleUrl, signInAs: identity.bootstrapAdmin?.email ?? identityEnv.GUARD_ADMIN_EMAIL },
      identity: identity.url,
      collector: collector.url,
    },
    {
      ...(identity.bootstrapAdmin ? { admin: identity.bootstrapAdmin } : {}),
      ...(identity.adminToken ? { adminToken: identity.adminToken } : {}),
      ...(collector.bootstrapApiKey ? { apiKey: collector.bootstrapApiKey } : {}),
    },
  )
  closeOnSignals(log, () =>
    closeAll(log, [
      [
        'backups',
        async () => {
          await scheduled?.stop()
          await control?.close()
        },
      ],
      ['probe', () => probe.close()],
      ['collector', () => collector.close()],
      ['identity', () => identity.close()],
      ['bus', () => bus.close()],
      ['timeseries', () => timeseries.close()],
      ['sql', () => sql.close()],
      ['data directory lock', async () => lock?.release()],
    ]),
  )
}
