"""Consensus: one value and a status per item and rating field, by the study's policy (with
Dawid-Skene as an option and a comparison), and the gold tables that hold them."""
