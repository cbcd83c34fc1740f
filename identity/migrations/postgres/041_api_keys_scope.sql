-- Minting API keys now needs the first-party scope api-keys:write, where any token with the
-- organizations scope could before: first-party clients that had that scope (the web console's
-- among them) keep what they could do.
UPDATE identity.clients SET allowed_scopes = allowed_scopes || ARRAY['api-keys:write']
 WHERE first_party AND 'organizations' = ANY (allowed_scopes) AND NOT 'api-keys:write' = ANY (allowed_scopes);
