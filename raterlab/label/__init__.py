"""``raterlab label``: terminal labeling of a packet, one task (dimension) per session.

The logic lives in :mod:`raterlab.label.model` (testable without a terminal); the screen in
:mod:`raterlab.label.app` (Textual).
"""
