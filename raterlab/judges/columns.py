"""The columns of a judge file (``raterlab judges import``), light enough for the command line
to name them before anything runs."""

FILE_COLUMNS = ("item_id", "judge", "field", "value")
OPTIONAL_COLUMNS = ("confidence", "rationale")
