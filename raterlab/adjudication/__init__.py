"""Adjudication: the queue of disputed fields, adjudication and third-annotator packets, and
the ingest of returned decisions into ``gold.adjudications``."""
