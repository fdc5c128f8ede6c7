"""Bytes -> text once, in the HTML standard's order, recording which encoding was used and why.

The order: byte order mark, transport charset (HTTP header), `<meta>` in the first 1024 bytes,
charset-normalizer's guess among the encodings the web uses, UTF-8 with replacement characters.
A declared charset that Python does not know, or that fails to decode the bytes strictly, falls
through to the next step. Labels map to codecs as the WHATWG Encoding Standard says for the common
ones (latin1 and ascii are windows-1252 on the web, Shift_JIS is Microsoft's cp932, ...).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

META_WINDOW = 1024
DEFAULT = "windows-1252"

BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# codec recorded and used -> the labels (and Python spellings) that mean it on the web
WHATWG_LABELS: dict[str, tuple[str, ...]] = {
    "utf-8": ("utf-8", "utf8", "utf_8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8",
              "x-unicode20utf8"),
    "windows-1252": ("windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso88591",
                     "iso_8859-1", "iso_8859-1:1987", "iso-ir-100", "latin1", "latin-1", "l1",
                     "csisolatin1", "ibm819", "cp819", "ascii", "us-ascii", "ansi_x3.4-1968"),
    "windows-1254": ("windows-1254", "cp1254", "x-cp1254", "iso-8859-9", "iso8859-9", "iso88599",
                     "iso_8859-9", "iso_8859-9:1989", "iso-ir-148", "latin5", "l5", "csisolatin5"),
    "cp874": ("windows-874", "cp874", "dos-874", "tis-620", "iso-8859-11", "iso8859-11",
              "iso885911"),
    "cp932": ("shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "ms932", "windows-31j",
              "csshiftjis", "cp932"),
    "cp949": ("euc-kr", "euc_kr", "cseuckr", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
              "ksc5601", "ksc_5601", "iso-ir-149", "windows-949", "cp949"),
    "big5hkscs": ("big5", "big5-hkscs", "big5hkscs", "cn-big5", "csbig5", "x-x-big5"),
    "gb18030": ("gb18030", "gbk", "gb2312", "gb_2312", "gb_2312-80", "csgb2312", "chinese",
                "csiso58gb231280", "iso-ir-58", "x-gbk"),
    "utf-16-le": ("utf-16", "utf-16le", "utf-16-le", "utf_16_le", "unicode", "ucs-2", "csunicode",
                  "iso-10646-ucs-2", "unicodefeff"),
    "utf-16-be": ("utf-16be", "utf-16-be", "utf_16_be", "unicodefffe"),
} | {f"windows-{n}": (f"windows-{n}", f"cp{n}", f"x-cp{n}") for n in (1250, 1251, 1253, 1255,
                                                                         1256, 1257, 1258)}
CODEC_OF_LABEL = {label: codec for codec, labels in WHATWG_LABELS.items() for label in labels}

# candidates for detection: the WHATWG encodings (no DOS or EBCDIC code pages), in Python's names
WEB_ENCODINGS = [
    "utf_8", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
    "cp1258", "cp874", "cp866", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5", "iso8859_6",
    "iso8859_7", "iso8859_8", "iso8859_10", "iso8859_13", "iso8859_14", "iso8859_15",
    "iso8859_16", "koi8_r", "koi8_u", "mac_roman", "mac_cyrillic", "gb18030", "big5hkscs",
    "euc_jp", "iso2022_jp", "cp932", "cp949", "utf_16_le", "utf_16_be",
]

COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
META = re.compile(r"<meta(?=[\s/])([^>]*)", re.I)
ATTRIBUTE = re.compile(r"""([^\s/>"'=]+)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]*))?""")
CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.I)


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str  # the Python codec used, e.g. "windows-1252", "utf-8", "cp932"
    source: str  # the step that decided: "bom", "transport", "meta", "detected" or "fallback"


def decode(data: bytes, transport_charset: str | None = None) -> Decoded:
    """data as text, by the first step of the HTML standard's order that decides."""
    for bom, bom_codec in BOMS:
        if data.startswith(bom):
            return Decoded(data[len(bom):].decode(bom_codec, "replace"), bom_codec, "bom")
    for source, label in (("transport", transport_charset), ("meta", meta_charset(data))):
        codec = codec_for(label)
        if codec is not None:
            try:
                return Decoded(data.decode(codec), codec, source)
            except UnicodeDecodeError:
                pass
    codec = detected_codec(data)
    if codec is not None:
        return Decoded(data.decode(codec, "replace"), codec, "detected")
    return Decoded(data.decode("utf-8", "replace"), "utf-8", "fallback")


def codec_for(label: str | None) -> str | None:
    """The codec a charset label stands for on the web, or None if Python has no such text codec."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    if label in CODEC_OF_LABEL:
        return CODEC_OF_LABEL[label]
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    if not info._is_text_encoding or info.name == "utf-7":
        return None  # base64, rot13: codecs but not charsets; UTF-7 is banned from the web (XSS)
    return CODEC_OF_LABEL.get(info.name, info.name)


def meta_charset(data: bytes) -> str | None:
    """The charset label of the first `<meta>` declaring one within the first 1024 bytes.

    `<meta charset>` or `<meta http-equiv="Content-Type" content="...; charset=...">`; comments are
    skipped, and a UTF-16 label means UTF-8 (ASCII-readable bytes cannot be UTF-16), as the HTML
    standard says.
    """
    head = COMMENT.sub("", data[:META_WINDOW].decode("latin-1"))
    for tag in META.finditer(head):
        attributes: dict[str, str] = {}
        for name, value in ATTRIBUTE.findall(tag.group(1)):
            attributes.setdefault(name.lower(), value.strip("\"'"))
        label = attributes.get("charset")
        if label is None and attributes.get("http-equiv", "").lower() == "content-type":
            label = charset_param(attributes.get("content", ""))
        codec = codec_for(label)
        if codec is not None:
            return "utf-8" if codec.startswith("utf-16") else label
    return None


def charset_param(content_type: str) -> str | None:
    """The charset label in a Content-Type value such as `text/html; charset=UTF-8`, or None."""
    found = CHARSET_PARAM.search(content_type)
    return found.group(1) if found else None


def detected_codec(data: bytes) -> str | None:
    """charset-normalizer's best guess among the web's encodings, or None.

    Short texts often fit several single-byte encodings about as well; windows-1252, the web's
    default for undeclared pages, is taken when its chaos is within CHAOS_MARGIN of the best guess's
    (a French page otherwise comes out as windows-1257: "à" read as "ą").
    """
    matches = from_bytes(data, cp_isolation=WEB_ENCODINGS)
    best = matches.best()
    if best is None:
        return None
    codec = codec_for(best.encoding)
    close = [m for m in matches if m.chaos <= best.chaos + CHAOS_MARGIN]
    if codec != "utf-8" and any("cp1252" in m.could_be_from_charset for m in close):
        return DEFAULT
    return codec


CHAOS_MARGIN = 0.1
