-- File names are stored without bidirectional controls (src/files/file-name.ts); names stored
-- before lose them the same way. A name that held nothing else becomes "file", as on upload.
UPDATE site_files
SET name = coalesce(
  nullif(translate(name, U&'\061C\200E\200F\202A\202B\202C\202D\202E\2066\2067\2068\2069', ''), ''),
  'file'
)
WHERE name ~ U&'[\061C\200E\200F\202A-\202E\2066-\2069]';
