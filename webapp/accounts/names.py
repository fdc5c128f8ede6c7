"""User names that cannot pass for someone else: what the audit log, a revision's author and a gold's
author show must name one account, never the command line, the importer or another user.

A new name is NFKC-normalised (a full-width or ligature spelling becomes the plain one) and single-spaced,
and refused when it
- holds a control or format character (newlines, escapes, zero-width characters, bidirectional overrides);
- is one of the names the app itself records as an actor (`local`, `import`, ...) or holds a colon
  (`cli:LOGIN` is the command line's);
- mixes Latin, Greek and Cyrillic letters (a Cyrillic "а" in a Latin name looks the same);
- is the same as an existing name but for case or look-alike letters (`ANN1` beside `ann1`): `name_key`.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 100
# actor names the app records for what no user did: local mode, the importer, the demo corpus, the
# command line (cli:LOGIN, refused by its colon); and the names that would read as one
RESERVED = frozenset({"local", "import", "cli", "demo", "system", "anonymous", "nobody"})
CONFUSABLE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
# Greek and Cyrillic letters that look like Latin ones (after case folding), for the look-alike check
LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j",
    "ԁ": "d", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i",
    "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "c", "0": "o",
    "1": "l", "|": "l",
})


class BadName(ValueError):
    """A name that cannot be given; the message says why."""


def normalised(name: str) -> str:
    """The name as it is stored and looked up: NFKC, runs of white space as one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def printable(text: str) -> str:
    """One line a terminal or a page shows as it is: control and format characters (newlines, escape
    sequences, bidirectional overrides) written as escapes."""
    return "".join(ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Cf") else ch
                   for ch in text)


def script(ch: str) -> str | None:
    """The script of a letter, by its Unicode name ("LATIN SMALL LETTER A" -> LATIN); None for others."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    return unicodedata.name(ch, "").split(" ", 1)[0] or None


def name_key(name: str) -> str:
    """What two names must not share: case-folded, look-alike letters as the Latin ones, no spaces."""
    return "".join(normalised(name).casefold().translate(LOOK_ALIKES).split())


def checked_name(name: str) -> str:
    """The normalised name, or BadName saying why it cannot be a user's name."""
    found = normalised(name)
    if not 0 < len(found) <= NAME_MAX:
        raise BadName(f"a name has 1 to {NAME_MAX} characters")
    odd = [ch for ch in name.strip() if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")]
    if odd:
        raise BadName(f"a name cannot hold control or invisible characters ({printable(''.join(odd))})")
    if ":" in found:
        raise BadName("a name cannot hold a colon (cli:LOGIN is how the command line is recorded)")
    if found.casefold() in RESERVED:
        raise BadName(f"{found!r} is a name Goldtext records for itself: choose another")
    scripts = CONFUSABLE_SCRIPTS.intersection(script(ch) for ch in found)
    if len(scripts) > 1:
        raise BadName(f"a name cannot mix {' and '.join(sorted(s.title() for s in scripts))} letters "
                         "(they look alike)")
    return found
