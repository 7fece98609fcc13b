"""``gold_tiers``: 1,040 cases over four task types (factual QA, summarization, code
generation, RAG synthesis), each output by one of three models, sound or flawed, with the
model's uncertainty; the three LLM judges' hidden verdicts are added by ``_generate.judges``.

One module per task type draws its cases from the material; ``cases`` numbers them and
adds the uncertainty.
"""
