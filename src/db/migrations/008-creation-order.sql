-- Lists say "oldest first", but created_at alone does not order rows made in the same tick:
-- PGlite's clock counts milliseconds, so two keys or files made within one share created_at, and
-- ordering those by their random uuid put them in either order. `creation_order` counts inserts,
-- so rows made in the same tick list in the order they were made. Rows from before this migration
-- are numbered in storage order; created_at still orders them first.
ALTER TABLE api_keys ADD COLUMN creation_order bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE site_files ADD COLUMN creation_order bigint GENERATED ALWAYS AS IDENTITY;
