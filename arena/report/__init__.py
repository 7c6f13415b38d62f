"""Turning records of games into things people read: narration, tables, reports."""
