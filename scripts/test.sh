#!/usr/bin/env bash
# Set everything up, then run the whole test suite (CI calls exactly this).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# One worker a core (pytest-xdist), each taking the next test when it is free:
# most of the time goes to numba compiling loops, one core a compile.
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
