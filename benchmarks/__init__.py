"""matfuse benchmark suite: workloads, peer implementations and the harness."""
