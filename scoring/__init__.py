"""Standings and Swiss pairings for Botifarra Duplicate.

The modules here are pure: they take the plain dataclasses of ``scoring.types`` and never import
Django (a test keeps it so). ``tournaments.scoring_io`` reads the database into these objects.
"""
