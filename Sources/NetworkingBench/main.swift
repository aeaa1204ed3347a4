// The Networking benchmark: filled in by the Networking issue.
print("networking-bench: no benchmarks yet")
