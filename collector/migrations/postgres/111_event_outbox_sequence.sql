-- The console's live stream replays missed events after Last-Event-ID in the order they were
-- staged: events of one transaction share created_at, so they need a sequence of their own.
ALTER TABLE monitoring.event_outbox ADD COLUMN seq bigserial;
CREATE INDEX event_outbox_seq_idx ON monitoring.event_outbox (seq);
