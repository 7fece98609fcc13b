"""Generate the sample generations of the bundled studies from ``studies/_samples/``.

The material (prompts, documents, replies, answer variants) is data: YAML and Markdown files
under ``studies/_samples/<study>/``. This package holds only what is code: reading that data
into typed material, and the seeded random choices that combine it into records. One module
(or, for the two larger studies, one subpackage) per study; ``studies/generate.py`` runs them.
"""
