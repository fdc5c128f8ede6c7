"""The rule a user-given extractor name follows (a variant's, a composition's)."""

from __future__ import annotations

import re

NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
NAME_RULE = "1 to 64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit"
