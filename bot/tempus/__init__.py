"""Tempus as shown to people: panels, names, event and refusal texts, help, hint, ids, images."""
