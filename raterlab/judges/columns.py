"""The columns of a judge file (``raterlab judges import``), light enough for the command line
to name them before anything runs."""

FILE_COLUMNS = ("item_id", "judge", "field", "value")
OPTIONAL_COLUMNS = ("confidence", "rationale", "run")
SIDE_COLUMNS = ("left_system", "right_system")
"""A pairwise field's verdict also names the order the judge saw the pair in: the system shown
on the left and the one on the right (its ``value`` is ``left``, ``right``, ``tie``...)."""
DEFAULT_RUN = "1"
"""The run of a verdict whose file has no ``run`` column (or an empty cell): one run."""
