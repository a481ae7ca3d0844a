"""The rules website: every game in every language, static, searchable, all links relative."""
