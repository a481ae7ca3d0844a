"""The rules text: Markdown chapters with references into the game's data."""
