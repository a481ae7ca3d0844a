"""A game read from its folder: YAML that remembers positions, the loader, the loaded `Game`."""
