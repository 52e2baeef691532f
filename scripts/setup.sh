#!/usr/bin/env bash
# Create .venv (if missing) and install lazyten with its test extras into it.
# Graphviz's `dot` (for rendering) is installed with apt-get where we can; without
# it lazyten still works and `visualize` says how to install it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test,bench]'
if ! command -v dot >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get install -y -q graphviz >/dev/null 2>&1 || \
      (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q graphviz >/dev/null 2>&1)) || \
      echo "note: could not install Graphviz (dot); rendering tests will be skipped" >&2
  else
    echo "note: Graphviz's 'dot' is not installed; install it (e.g. apt-get install graphviz) to render graphs" >&2
  fi
fi
