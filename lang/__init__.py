"""Words in every language: the gettext catalogues and what reads them (below render)."""
