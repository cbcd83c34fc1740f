-- Tags are `key` or `key:value` in the monitors' and devices' `tags`. A colour per tag key per
-- organization, for the console's chips; a key with no row gets a colour derived from its name.
CREATE TABLE monitoring.tag_colors (
  organization_id text NOT NULL,
  key text NOT NULL,
  color text NOT NULL CHECK (color ~ '^#[0-9a-f]{6}$'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);

-- The keys of a tag list: a filter naming a bare `key` matches any value of it, which `tags @>` cannot
-- express; an index on this expression answers it as the GIN index on `tags` answers exact tags.
CREATE FUNCTION monitoring.tag_keys(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(split_part(tag, ':', 1)), ARRAY[]::text[]) FROM unnest(tags) AS tag $$;

-- Tags are normalised on write from now on (trimmed, lowercase keys, no duplicates): bring the stored
-- ones in line so filters match them.
CREATE FUNCTION monitoring.normalise_tags(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(tag ORDER BY first), ARRAY[]::text[])
      FROM (SELECT tag, min(ordinality) AS first
              FROM (SELECT CASE WHEN position(':' IN btrim(raw)) = 0 THEN lower(btrim(raw))
                                ELSE lower(btrim(split_part(btrim(raw), ':', 1))) || ':'
                                     || btrim(substr(btrim(raw), position(':' IN btrim(raw)) + 1))
                           END AS tag, ordinality
                      FROM unnest(tags) WITH ORDINALITY AS t(raw, ordinality)) normalised
             WHERE tag <> ''
             GROUP BY tag) kept
  $$;
UPDATE monitoring.monitors SET tags = monitoring.normalise_tags(tags) WHERE tags <> monitoring.normalise_tags(tags);
UPDATE monitoring.devices SET tags = monitoring.normalise_tags(tags) WHERE tags <> monitoring.normalise_tags(tags);
DROP FUNCTION monitoring.normalise_tags(text[]);

CREATE INDEX monitors_tags_idx ON monitoring.monitors USING gin (tags);
CREATE INDEX monitors_tag_keys_idx ON monitoring.monitors USING gin (monitoring.tag_keys(tags));
CREATE INDEX devices_tags_idx ON monitoring.devices USING gin (tags);
CREATE INDEX devices_tag_keys_idx ON monitoring.devices USING gin (monitoring.tag_keys(tags));
