"""Pairwise preference studies: side-by-side choices, Bradley-Terry and Davidson rankings,
position bias."""
