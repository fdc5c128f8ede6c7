"""The foundation every area stands on: the settings (`config`) and the object built from them
(`settings`), the database's engine and sessions (`engine`), its migrations (`migrate`), how many rows an
UPDATE matched (`rows_matched`), the in-process caches' one helper (`kept`), the vocabulary of page types and
statuses (`vocabulary`) and the entry-point loader of plugins (`plugins`). No Flask: the faces' side of the
database is webapp/web/db.py."""
