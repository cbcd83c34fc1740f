export { openMigratedTestRelationalStore, openTestRelationalStore } from '../store/pglite-template.ts'
export { openTestTimeSeriesStore } from '../store/timeseries.ts'
export { sampleHeartbeat } from './agent-heartbeat.ts'
export { sampleCheckResult } from './check-result.ts'
export {
  type ClickHouseDouble,
  openTestTimeSeriesStoreOverHttp,
  startClickHouseDouble,
} from './clickhouse-http.ts'
export {
  LONE_SURROGATES,
  loneSurrogate,
  MALFORMED_BYTES,
  MALFORMED_PERCENT,
  malformedBodies,
  malformedHeaderValue,
  malformedPercent,
} from './malformed-text.ts'
export { type MariaDbServer, startMariaDb } from './mariadb.ts'
export {
  NATS_HUB_DOMAIN,
  type NatsTestCluster,
  type NatsTestHub,
  type NatsTestServer,
  startNatsCluster,
  startNatsHubAndLeaf,
  startNatsServer,
} from './nats-server.ts'
export { type PostgresServer, startPostgres } from './postgres.ts'
export { type RedisServer, startRedis } from './redis.ts'
export { freePort, serviceAvailable } from './services.ts'
