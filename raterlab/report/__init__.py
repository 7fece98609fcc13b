"""The study report the PI reads: ``reports/<study>/index.html``, one self-contained page
(plots embedded, no request leaves the machine) from the study's warehouse tables."""

from raterlab.report.build import load_inputs, render, write_report

__all__ = ["load_inputs", "render", "write_report"]
