"""Tools that are not the recorder: the benchmark, synthetic matches, docs generation, the demo."""
