-- Private status pages and custom domains (README "Private pages and custom domains"). A page still
-- needs is_public to be served at all; access_mode then says who may see it. The password is an
-- scrypt hash, never the password; a custom domain answers for one page only.
ALTER TABLE monitoring.status_pages
  ADD COLUMN access_mode text NOT NULL DEFAULT 'public'
    CHECK (access_mode IN ('public', 'password', 'ip', 'members')),
  ADD COLUMN password_hash text,
  ADD COLUMN ip_allow_list jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN custom_domain text CHECK (custom_domain = lower(custom_domain));
CREATE UNIQUE INDEX status_pages_custom_domain_idx ON monitoring.status_pages (custom_domain)
  WHERE custom_domain IS NOT NULL;
