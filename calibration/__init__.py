"""Calibration: turning raw readings (matrix cells, pixels) into squares, and saving what was learned."""
