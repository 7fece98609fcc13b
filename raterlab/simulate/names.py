"""Names of the simulation that the command line needs before anything runs."""

ROUNDS = ("pilot", "main", "all")
"""Which packets ``raterlab simulate --round`` fills."""
