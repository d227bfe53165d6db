"""Rule tables shipped with cudaport (installed as the package cudaport._rules)."""
