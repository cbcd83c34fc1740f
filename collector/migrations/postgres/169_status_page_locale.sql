-- The language a status page speaks to visitors and subscribers (its page, history, incident pages,
-- e-mails, feed titles): one of the locales of the message catalog (services/status-pages/i18n).
ALTER TABLE monitoring.status_pages ADD COLUMN locale text NOT NULL DEFAULT 'en'
  CHECK (locale IN ('en', 'de', 'fr', 'es', 'nl', 'pt', 'ja', 'ar'));
