-- Domain registration expiry read over RDAP (README "Domain registration expiry"). One row per
-- registrable domain, shared by every monitor on a name under it and by every replica, so a
-- domain is asked once a day whatever the number of monitors and replicas. A failed lookup keeps
-- the last expiry it had and says why in error_kind and error_message.
CREATE TABLE monitoring.domain_registrations (
  domain text PRIMARY KEY,
  expires_at timestamptz,
  registrar text,
  checked_at timestamptz NOT NULL,
  error_kind text,
  error_message text
);

-- Each registration threshold (30, 14, 7, 1 days) is announced once per monitor and expiry date.
CREATE TABLE monitoring.registration_notices (
  monitor_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  threshold integer NOT NULL,
  PRIMARY KEY (monitor_id, expires_at, threshold)
);

-- The IANA RDAP bootstrap last fetched; until one is, the copy shipped in collector/assets/rdap
-- is used. attempted_at spaces the refresh attempts of an install that cannot reach IANA.
CREATE TABLE monitoring.rdap_bootstrap (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  document jsonb,
  fetched_at timestamptz,
  attempted_at timestamptz NOT NULL
);
