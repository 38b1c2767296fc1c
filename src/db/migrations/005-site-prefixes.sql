-- The prefixes a site's model declared (issue 22): {"ex": "https://example.org/hq#", …}, from the
-- Turtle of the last load (a replace sets them, a merge adds to them). An export writes its Turtle
-- with them; null until a Turtle load declared any.
ALTER TABLE sites ADD COLUMN prefixes jsonb;
