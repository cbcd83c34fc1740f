-- Second factors: passkeys (WebAuthn), TOTP with recovery codes, and what each sign-in proved.

-- RFC 8176 methods a session, a code and a token family were authenticated with (pwd, otp, hwk, swk, mfa):
-- the ID token's amr and acr, and what authorize compares to an organization's policy and acr_values.
ALTER TABLE identity.sessions ADD COLUMN amr text[] NOT NULL DEFAULT '{pwd}';
ALTER TABLE identity.authorization_codes ADD COLUMN amr text[] NOT NULL DEFAULT '{pwd}';
ALTER TABLE identity.grants ADD COLUMN amr text[] NOT NULL DEFAULT '{pwd}';

-- Owners choose whether members must use a second factor, and which.
ALTER TABLE identity.organizations ADD COLUMN second_factor text NOT NULL DEFAULT 'off'
  CHECK (second_factor IN ('off', 'passkey_or_totp', 'passkey'));

CREATE TABLE identity.passkeys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  -- base64url credential id and COSE public key, as the authenticator gave them.
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  -- singleDevice (hardware-bound: amr hwk) or multiDevice (synced: amr swk).
  device_type text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up boolean NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_idx ON identity.passkeys (user_id);

-- One TOTP secret per user, encrypted; unconfirmed until the user typed a code from it.
CREATE TABLE identity.totp_secrets (
  user_id text PRIMARY KEY REFERENCES identity.users (id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  confirmed_at timestamptz,
  -- The RFC 6238 time step of the last accepted code: that code and older ones are refused.
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity.recovery_codes (
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- WebAuthn challenges, each good once and for minutes; user_id is null for a passkey sign-in
-- that does not know the user yet (discoverable credentials).
CREATE TABLE identity.webauthn_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  user_id text REFERENCES identity.users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
