"""Benchmarks, run by ``make bench``: each figure is printed beside a peer doing the same work."""
