"""Time: the scheduler, time sources, the turn clock, deadlines and paces."""
