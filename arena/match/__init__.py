"""``arena match``: is NEW better than BASE? Paired duplicate games and a sequential test."""
