-- Why a check was not up, machine-readable (closed set in shared/src/contracts/check-result.ts);
-- `error` keeps the human message. Empty for results stored before this column.
ALTER TABLE check_results ADD COLUMN IF NOT EXISTS error_kind LowCardinality(String) DEFAULT '' AFTER error
