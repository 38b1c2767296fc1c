-- Sites: one row per building site; the id is the slug used in graph names, file paths and URLs.
CREATE TABLE sites (
  id text PRIMARY KEY,
  name text NOT NULL,
  organization text,
  address text,
  city text,
  country text,
  country_code char(2),
  latitude double precision,
  longitude double precision,
  timezone text NOT NULL DEFAULT 'UTC',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- API keys. The secret itself is never stored: `prefix` (its first 12 characters, 'bkg_' and 8
-- random ones) finds the candidate rows, `secret_hash` (sha256, hex) proves the rest.
-- Site access is explicit: `all_sites` grants every site, present and future; otherwise `sites`
-- lists them, and an empty list grants none (so removing a key's last site never widens it).
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  prefix text NOT NULL,
  secret_hash text NOT NULL UNIQUE CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
  all_sites boolean NOT NULL DEFAULT false,
  sites text[] NOT NULL DEFAULT '{}',
  can_write boolean NOT NULL DEFAULT false,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  CHECK (NOT all_sites OR cardinality(sites) = 0)
);

CREATE INDEX api_keys_prefix ON api_keys (prefix);
-- removeSite finds the keys that list a site.
CREATE INDEX api_keys_sites ON api_keys USING gin (sites);
