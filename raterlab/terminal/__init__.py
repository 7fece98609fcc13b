"""``raterlab label``: terminal labeling of a packet, one task (dimension) per session.

The logic lives in :mod:`raterlab.terminal.model` (testable without a terminal); the screen in
:mod:`raterlab.terminal.app` (Textual).
"""
