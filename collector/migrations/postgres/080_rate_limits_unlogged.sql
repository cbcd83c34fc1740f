-- Every authenticated request upserts its rate-limit row, so this table takes a write per read.
-- Unlogged, that write skips the WAL; after a PostgreSQL crash the table comes back empty, which
-- restarts the current hour's counts: acceptable for a limiter, and far cheaper than a logged write.
ALTER TABLE monitoring.rate_limits SET UNLOGGED;
