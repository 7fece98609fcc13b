"""From generations to blinded packets: loading, routing, sampling, assignment, blinding.

Names are imported when first used (:mod:`raterlab.lazy`): the front ends read a packet's
items (:mod:`raterlab.design.items`) without loading pandas and the rest of the design.
"""

from raterlab.lazy import exports

__all__, __getattr__, __dir__ = exports(
    __name__,
    {
        "DesignError": "assignment",
        "assign": "assignment",
        "load_or_create_secret": "blinding",
        "seal": "blinding",
        "GenerationsError": "generations",
        "generation_chunks": "generations",
        "read_generations": "generations",
        "files_intact": "packets",
        "neutralise": "packets",
        "write_packets": "packets",
        "routed_items": "routing",
    },
)
