"""Session stores: Django's, with the session read in one plain SQL statement (db.py, cached_db.py)."""
