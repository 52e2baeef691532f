#!/usr/bin/env bash
# Set everything up, then run the whole test suite (CI calls exactly this).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
