"""Test support shared by the tests and the benchmarks (the fake of Discord)."""
