-- One replica at a time refreshes a session's tokens: identity revokes the whole token family
-- when a rotated refresh token is used twice, so two replicas refreshing at once would sign the
-- user out. The claim expires by itself if its replica dies mid-refresh.
ALTER TABLE monitoring.console_sessions ADD COLUMN refresh_claimed_until timestamptz;
