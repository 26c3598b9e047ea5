"""Finished games: results, statistics and ratings derived from the stored action logs."""
