"""Army lists: a player's choice of units, read from YAML and checked against a game's roster rules."""
