"""What an exported pipeline pins, and the check of the pins against what is installed where it runs.

A pin is one extractor as Goldtext scored it: its name, the registered extractor it is built on (itself, or the
base of a variant), its options (site-rules' rules among them) and the fingerprint and version that earned its
score. `build_pinned` rebuilds each from the registry here; a fingerprint that differs is a version drift, and
the run refuses it (VersionDrift, naming each difference) unless drift is allowed, when it is only reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from ..extractors.base import Extractor, canonical_json
from ..extractors.registry import process_registry
from ..extractors.variant_extractor import variant_of

LIBRARIES = ("goldtext", "datatrove", "trafilatura", "lxml", "pebble", "warcio")
"""The libraries whose versions a configuration records beside the extractors' own."""


class VersionDrift(RuntimeError):
    """The installed libraries give other fingerprints than the configuration pins; the message names each."""


@dataclass(frozen=True)
class Pin:
    name: str
    base: str
    options: Mapping[str, Any]
    fingerprint: str
    version: str

    @classmethod
    def of(cls, extractor: Extractor, base: str) -> Pin:
        return cls(extractor.name, base, dict(extractor.options), extractor.fingerprint, extractor.version)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "base": self.base, "options": dict(self.options),
                "fingerprint": self.fingerprint, "version": self.version}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pin:
        return cls(data["name"], data["base"], dict(data["options"]), data["fingerprint"], data["version"])


def library_versions() -> dict[str, str]:
    """Installed version of each of LIBRARIES ("not installed" for a missing one)."""
    found = {}
    for name in LIBRARIES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def rebuilt(pin: Pin, registry: Mapping[str, Extractor]) -> Extractor:
    """The pinned extractor as the registry here builds it; KeyError naming a base that is not registered."""
    base = registry.get(pin.base)
    if base is None:
        raise KeyError(f"{pin.name}: its extractor {pin.base!r} is not registered here")
    if pin.name == pin.base:
        return replace(base, options={**base.options, **pin.options})
    return variant_of(base, pin.name, pin.options)


def differences(pin: Pin, extractor: Extractor) -> list[str]:
    """How the installed extractor differs from its pin: each library version, then the options."""
    if extractor.fingerprint == pin.fingerprint:
        return []
    pinned = pin.version.split(", ")
    installed = extractor.version.split(", ")
    found = [f"{pin.name}: pinned {was}, installed {now}"
             for was, now in zip(pinned, installed) if was != now]
    if len(pinned) != len(installed) and not found:
        found.append(f"{pin.name}: pinned {pin.version!r}, installed {extractor.version!r}")
    if canonical_json(dict(pin.options)) != canonical_json(dict(extractor.options)):
        found.append(f"{pin.name}: options differ from the pinned ones")
    if not found:
        found.append(f"{pin.name}: fingerprint {extractor.fingerprint!r} is not the pinned {pin.fingerprint!r}")
    return found


def build_pinned(
    pins: Iterable[Pin], allow_drift: bool = False, registry: Mapping[str, Extractor] | None = None
) -> tuple[dict[str, Extractor], list[str]]:
    """(name -> the installed extractor, the differences found). VersionDrift names each difference unless
    drift is allowed; an extractor that is unavailable here, or whose base is not registered, always refuses."""
    registry = process_registry() if registry is None else registry
    built: dict[str, Extractor] = {}
    drift: list[str] = []
    missing: list[str] = []
    for pin in pins:
        try:
            extractor = rebuilt(pin, registry)
        except KeyError as error:
            missing.append(str(error.args[0]))
            continue
        if not extractor.available:
            missing.append(f"{pin.name} is unavailable here: {extractor.unavailable_reason}")
            continue
        built[pin.name] = extractor
        drift += differences(pin, extractor)
    if missing:
        raise VersionDrift("; ".join(missing))
    if drift and not allow_drift:
        raise VersionDrift(
            "the installed libraries are not those the scores were earned with (pass --allow-version-drift "
            "to run anyway): " + "; ".join(drift)
        )
    return built, drift
