"""Standings and Swiss pairings for Botifarra Duplicate.

The modules here are pure: they take the plain dataclasses of ``scoring.types`` and never import
Django. One bridge module (written separately) loads the database into these objects.
"""
