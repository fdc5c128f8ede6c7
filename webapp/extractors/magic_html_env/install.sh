#!/usr/bin/env bash
# Makes magic-html's own Python environment beside this script (.venv), with the packages requirements.txt pins.
# magic-html requires Python 3.12 or later: the first found of MAGIC_HTML_PYTHON, python3.12 or python3.13 on the
# PATH, and pyenv's 3.12 or 3.13 (~/.pyenv/versions/3.12*/bin/python3.12) that runs makes it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${MAGIC_HTML_PYTHON:-}"
if [ -z "$python" ]; then
    pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
    for candidate in "$(command -v python3.12 || true)" "$(command -v python3.13 || true)" \
            "$pyenv_root"/versions/3.12*/bin/python3.12 "$pyenv_root"/versions/3.13*/bin/python3.13; do
        # a pyenv shim is on the PATH whether or not its version is active: the candidate must run
        if [ -n "$candidate" ] && "$candidate" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then
            python="$candidate"; break
        fi
    done
fi
if [ -z "$python" ]; then
    echo "magic-html needs Python 3.12 or later and none was found: install one (pyenv install 3.12)" \
         "or name it in MAGIC_HTML_PYTHON" >&2
    exit 1
fi
"$python" -m venv "$here/.venv"
"$here/.venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt"
echo "magic-html installed with $("$here/.venv/bin/python" --version) in $here/.venv"
