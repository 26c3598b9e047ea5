"""The process itself: settings, worker pools, memory upkeep, locks and JSON text."""
