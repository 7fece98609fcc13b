"""Hand-written text material for the sample generations of the bundled studies.

One module per study holds its prompts, documents, replies and answer variants; the
combinatorial assembly and the seeded randomness live in ``studies/generate.py``.
"""
