-- Databases' timing phase: from the authenticated connection to the query's answer. Null for
-- checks that run no query, and for results stored before this column.
ALTER TABLE check_results ADD COLUMN IF NOT EXISTS query_ms Nullable(Float64) AFTER transfer_ms
