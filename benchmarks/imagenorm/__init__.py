"""Benchmark workload: the .m script and its peer implementations."""
