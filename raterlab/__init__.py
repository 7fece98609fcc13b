"""raterlab: human-annotation studies for LLM evaluation, as plain Python over DataFrames.

Nothing in this package imports Dagster; the orchestration lives in ``assets/``, ``checks/``,
``resources/`` and ``pipelines/``.
"""

__version__ = "0.1.0"
