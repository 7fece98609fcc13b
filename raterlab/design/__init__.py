"""From generations to blinded packets: loading, routing, sampling, assignment, blinding."""

from raterlab.design.assignment import DesignError, assign
from raterlab.design.blinding import load_or_create_secret, seal
from raterlab.design.generations import GenerationsError, read_generations
from raterlab.design.packets import files_intact, neutralise, write_packets
from raterlab.design.routing import routed_items

__all__ = [
    "DesignError",
    "GenerationsError",
    "assign",
    "files_intact",
    "load_or_create_secret",
    "neutralise",
    "read_generations",
    "routed_items",
    "seal",
    "write_packets",
]
