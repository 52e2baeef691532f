#!/usr/bin/env bash
# Set everything up, then run the quickstart demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python examples/quickstart.py "$@"
