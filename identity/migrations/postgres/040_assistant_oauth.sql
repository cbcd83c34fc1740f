-- OAuth for assistants: dynamically registered (RFC 7591) public clients, which expire when
-- unused, and RFC 8707 resource indicators bound to codes, grants and consents.

ALTER TABLE identity.clients ADD COLUMN registered_dynamically boolean NOT NULL DEFAULT false;
-- Set on every token issued to the client; an old registration never used is pruned.
ALTER TABLE identity.clients ADD COLUMN last_token_at timestamptz;
CREATE INDEX clients_dynamic_idx ON identity.clients (created_at) WHERE registered_dynamically;

-- The resource the authorization request named; the token's audience. NULL: the default audience.
ALTER TABLE identity.authorization_codes ADD COLUMN resource text;
ALTER TABLE identity.grants ADD COLUMN resource text;

-- The resources the user consented to give the client access to, besides the default audience.
ALTER TABLE identity.consents ADD COLUMN resources text[] NOT NULL DEFAULT '{}';
