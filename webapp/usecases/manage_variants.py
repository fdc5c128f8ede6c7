"""Add and remove an extractor variant (a registered extractor with options of its own). `goldtext
extractors add|remove` (cli/extract_commands.py) and the Extractors page's forms (views/extractors.py)
call them.

The rules: only an admin adds or removes a variant (403); a variant's name is new and not a registered
extractor's, its base a registered extractor, its options the base's own with values of their type (400,
extractors/variants.py names what is wrong); removing names a stored variant (404) that no composition has as a
part (409, naming them), its extractions kept.
Each is audited; the face commits."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..extractors.base import Extractor
from ..extractors.composition_rows import compositions_using
from ..extractors.variants import BadVariant, add_variant, remove_variant
from ..foundation.settings import Settings
from .outcome import Actor, Refused, needs


@needs(ADMIN, "Only an admin adds extractor variants.")
def add_extractor_variant(session: Session, settings: Settings, actor: Actor, name: str, base: str,
                          options: Sequence[str]) -> Extractor:
    """The stored variant `name` of `base` with `options` (NAME=VALUE each); Refused by the rules above."""
    try:
        variant = add_variant(session, settings.registry, name.strip(), base, list(options), created_by=actor.name)
    except BadVariant as error:
        raise Refused(400, str(error)) from None
    actor.record(session, Action.VARIANT_ADD, variant.name, {"base": base, "options": list(options)})
    return variant


@needs(ADMIN, "Only an admin removes extractor variants.")
def remove_extractor_variant(session: Session, actor: Actor, name: str) -> None:
    """Forget the variant `name` (its extractions stay); Refused by the rules above."""
    using = compositions_using(session, name)
    if using:
        raise Refused(409, f"The variant {name} is a part of the composition{'s' if len(using) > 1 else ''} "
                           f"{', '.join(using)}: remove {'them' if len(using) > 1 else 'it'} first.")
    try:
        remove_variant(session, name)
    except BadVariant as error:
        raise Refused(404, str(error)) from None
    actor.record(session, Action.VARIANT_REMOVE, name)
