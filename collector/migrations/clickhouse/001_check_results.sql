-- ReplacingMergeTree on a key that ends with the result id: a result redelivered after a crash
-- collapses into one row, and reads use FINAL so the duplicate is never visible before a merge.
CREATE TABLE IF NOT EXISTS check_results (
  id String,
  organization_id LowCardinality(String),
  monitor_id String,
  location LowCardinality(String),
  kind LowCardinality(String),
  status LowCardinality(String),
  started_at DateTime64(3, 'UTC'),
  response_time_ms Float64,
  status_code UInt16,
  error String,
  dns_ms Nullable(Float64),
  connect_ms Nullable(Float64),
  tls_ms Nullable(Float64),
  first_byte_ms Nullable(Float64),
  transfer_ms Nullable(Float64),
  cert_valid Nullable(UInt8),
  cert_expires_at Nullable(DateTime64(3, 'UTC')),
  cert_issuer String,
  cert_subject String,
  received_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(started_at)
ORDER BY (organization_id, monitor_id, started_at, location, id)
TTL toDateTime(started_at) + INTERVAL 400 DAY
