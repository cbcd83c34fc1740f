-- Every ping of a heartbeat monitor, with its body (up to 100 kB) and source, for the run log.
-- ReplacingMergeTree on a key that ends with the ping id: a redelivered ping collapses into one row.
CREATE TABLE IF NOT EXISTS heartbeat_pings (
  id String,
  organization_id LowCardinality(String),
  monitor_id String,
  type LowCardinality(String),
  exit_code Nullable(UInt8),
  rid String,
  received_at DateTime64(3, 'UTC'),
  duration_ms Nullable(Float64),
  method LowCardinality(String),
  source_ip String,
  user_agent String,
  body String
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(received_at)
ORDER BY (organization_id, monitor_id, received_at, id)
TTL toDateTime(received_at) + INTERVAL 90 DAY
