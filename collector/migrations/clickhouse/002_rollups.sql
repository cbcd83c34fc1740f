-- Per-minute and per-hour rollups, filled by materialized views on every insert into
-- check_results. A view sees each inserted block once and cannot deduplicate, so the ingest
-- inserts only results whose id is not stored yet (services/results/store.ts): a redelivered
-- result never reaches the views a second time. TTLs here are defaults; the collector applies
-- the configured retention at start (services/results/retention.ts).
CREATE TABLE IF NOT EXISTS check_results_1m (
  organization_id LowCardinality(String),
  monitor_id String,
  location LowCardinality(String),
  bucket DateTime('UTC'),
  checks SimpleAggregateFunction(sum, UInt64),
  failures SimpleAggregateFunction(sum, UInt64),
  rt_sum SimpleAggregateFunction(sum, Float64),
  rt_min SimpleAggregateFunction(min, Float64),
  rt_max SimpleAggregateFunction(max, Float64),
  rt_quantiles AggregateFunction(quantilesTDigest(0.5, 0.95, 0.99), Float64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, monitor_id, bucket, location)
TTL bucket + INTERVAL 35 DAY;

CREATE MATERIALIZED VIEW IF NOT EXISTS check_results_1m_mv TO check_results_1m AS
SELECT organization_id, monitor_id, location,
       toStartOfMinute(started_at) AS bucket,
       count() AS checks,
       countIf(status = 'down') AS failures,
       sum(response_time_ms) AS rt_sum,
       min(response_time_ms) AS rt_min,
       max(response_time_ms) AS rt_max,
       quantilesTDigestState(0.5, 0.95, 0.99)(response_time_ms) AS rt_quantiles
  FROM check_results
 GROUP BY organization_id, monitor_id, location, bucket;

CREATE TABLE IF NOT EXISTS check_results_1h (
  organization_id LowCardinality(String),
  monitor_id String,
  location LowCardinality(String),
  bucket DateTime('UTC'),
  checks SimpleAggregateFunction(sum, UInt64),
  failures SimpleAggregateFunction(sum, UInt64),
  rt_sum SimpleAggregateFunction(sum, Float64),
  rt_min SimpleAggregateFunction(min, Float64),
  rt_max SimpleAggregateFunction(max, Float64),
  rt_quantiles AggregateFunction(quantilesTDigest(0.5, 0.95, 0.99), Float64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, monitor_id, bucket, location)
TTL bucket + INTERVAL 400 DAY;

CREATE MATERIALIZED VIEW IF NOT EXISTS check_results_1h_mv TO check_results_1h AS
SELECT organization_id, monitor_id, location,
       toStartOfHour(started_at) AS bucket,
       count() AS checks,
       countIf(status = 'down') AS failures,
       sum(response_time_ms) AS rt_sum,
       min(response_time_ms) AS rt_min,
       max(response_time_ms) AS rt_max,
       quantilesTDigestState(0.5, 0.95, 0.99)(response_time_ms) AS rt_quantiles
  FROM check_results
 GROUP BY organization_id, monitor_id, location, bucket
