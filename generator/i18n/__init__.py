"""Translation through gettext catalogs: rules text and YAML strings in one PO file per
game and language."""
