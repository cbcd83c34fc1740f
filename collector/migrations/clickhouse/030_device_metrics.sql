-- One row per device, metric type, name and heartbeat. ReplacingMergeTree on a key that ends with
-- the heartbeat time: a redelivered heartbeat collapses into the same rows. The ingest also skips
-- heartbeats already stored, so the rollup view never counts one twice.
CREATE TABLE IF NOT EXISTS device_metrics (
  organization_id LowCardinality(String),
  device_id String,
  type LowCardinality(String),
  name LowCardinality(String),
  value Float64,
  unit LowCardinality(String),
  timestamp DateTime64(3, 'UTC'),
  received_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (organization_id, device_id, type, name, timestamp)
TTL toDateTime(timestamp) + INTERVAL 35 DAY;

-- Per-minute aggregates for long ranges (7d, 30d). TTL is a default; the collector applies the
-- configured retention at start.
CREATE TABLE IF NOT EXISTS device_metrics_1m (
  organization_id LowCardinality(String),
  device_id String,
  type LowCardinality(String),
  name LowCardinality(String),
  unit LowCardinality(String),
  bucket DateTime('UTC'),
  samples SimpleAggregateFunction(sum, UInt64),
  value_sum SimpleAggregateFunction(sum, Float64),
  value_min SimpleAggregateFunction(min, Float64),
  value_max SimpleAggregateFunction(max, Float64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, device_id, type, name, bucket, unit)
TTL bucket + INTERVAL 35 DAY;

CREATE MATERIALIZED VIEW IF NOT EXISTS device_metrics_1m_mv TO device_metrics_1m AS
SELECT organization_id, device_id, type, name, unit,
       toStartOfMinute(timestamp) AS bucket,
       count() AS samples,
       sum(value) AS value_sum,
       min(value) AS value_min,
       max(value) AS value_max
  FROM device_metrics
 GROUP BY organization_id, device_id, type, name, unit, bucket
