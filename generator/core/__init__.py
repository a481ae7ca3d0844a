"""What every layer speaks: diagnostics (what a check found, at which file:line, with its
code and hint) and language codes."""
