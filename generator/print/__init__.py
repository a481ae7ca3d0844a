"""Print-and-play output: rulebook, card sheets and reference sheet PDFs, card images."""
