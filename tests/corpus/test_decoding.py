"""Decoding: bytes -> text in the HTML standard's order, the encoding and deciding step recorded."""

from __future__ import annotations

import codecs
import gzip

import pytest
from corpora import CORPORA, READABILITY, READABILITY_PAGES
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.corpus.decoding import Decoded, charset_param, codec_for, decode, meta_charset

FRENCH = "Le café – naïve “quoted” text"
FRENCH_1252 = f"<html><body><p>{FRENCH}</p></body></html>".encode("windows-1252")


@pytest.mark.parametrize(
    ("data", "text", "encoding"),
    [
        (codecs.BOM_UTF8 + "<p>café</p>".encode(), "<p>café</p>", "utf-8"),
        (codecs.BOM_UTF16_LE + "<p>café</p>".encode("utf-16-le"), "<p>café</p>", "utf-16le"),
        (codecs.BOM_UTF16_BE + "<p>café</p>".encode("utf-16-be"), "<p>café</p>", "utf-16be"),
    ],
)
def test_a_byte_order_mark_decides_and_is_not_part_of_the_text(data, text, encoding):
    assert decode(data, transport_charset="windows-1252") == Decoded(text, encoding, "bom")


def test_a_byte_order_mark_beats_a_meta_declaration():
    data = codecs.BOM_UTF8 + '<meta charset="windows-1252"><p>café</p>'.encode()
    assert decode(data).text.endswith("<p>café</p>")


def test_the_transport_charset_beats_meta():
    data = '<meta charset="utf-8"><p>Привет</p>'.encode("koi8-r")
    assert decode(data, "KOI8-R") == Decoded(data.decode("koi8-r"), "koi8-r", "transport")


@pytest.mark.parametrize("label", ["iso-8859-1", "ISO-8859-1", "latin1", "ascii", "us-ascii"])
def test_latin1_and_ascii_labels_mean_windows_1252_as_on_the_web(label):
    result = decode(FRENCH_1252, label)
    assert (result.encoding, result.source) == ("windows-1252", "transport")
    assert FRENCH in result.text  # 0x93/0x94/0x96 are curly quotes and a dash, not C1 controls


def test_utf8_label_spelt_without_hyphen():
    assert decode("<p>café</p>".encode(), "utf8") == Decoded("<p>café</p>", "utf-8", "transport")


def test_shift_jis_label_decodes_microsoft_extensions_as_browsers_do():
    data = "<p>① 日本</p>".encode("cp932")  # ① is a cp932 (Windows-31J) extension
    assert decode(data, "Shift_JIS") == Decoded("<p>① 日本</p>", "cp932", "transport")


@pytest.mark.parametrize("label", ["no-such-charset", "base64", "utf-7", "cp850", "latin9", ""])
def test_a_transport_label_the_encoding_standard_does_not_know_falls_through(label):
    data = '<meta charset="koi8-r"><p>Привет</p>'.encode("koi8-r")
    assert decode(data, label).source == "meta"


RUSSIAN = "<p>Привет, мир</p>"
GERMAN = "<p>Die Brücke über den Fluss</p>"


@pytest.mark.parametrize(
    ("data", "transport", "text"),
    [
        # one stray byte in a UTF-8 page declared by its header: read as utf-16-be before
        (RUSSIAN.encode() + b"\xff" + GERMAN.encode(), "utf-8", f"{RUSSIAN}\ufffd{GERMAN}"),
        # the same, declared by <meta>
        (b'<meta charset="utf-8">' + RUSSIAN.encode() + b"\xe9" + GERMAN.encode(), None,
         f'<meta charset="utf-8">{RUSSIAN}\ufffd{GERMAN}'),
        # a UTF-8 page cut inside its last character
        (b'<meta charset="utf-8">' + GERMAN.encode() + "ü".encode()[:1], None,
         f'<meta charset="utf-8">{GERMAN}\ufffd'),
    ],
)
def test_a_declared_charset_is_used_with_replacement_characters_for_its_invalid_bytes(data, transport, text):
    assert decode(data, transport) == Decoded(text, "utf-8", "transport" if transport else "meta")


def test_a_transport_charset_beats_meta_even_when_the_bytes_do_not_fit_it():
    data = '<meta charset="windows-1252"><p>café</p>'.encode("windows-1252")
    assert decode(data, "utf-8") == Decoded('<meta charset="windows-1252"><p>caf\ufffd</p>', "utf-8", "transport")


@pytest.mark.parametrize(
    ("head", "label"),
    [
        ('<meta charset="windows-1251">', "windows-1251"),
        ("<META CHARSET=windows-1251>", "windows-1251"),
        ("<meta http-equiv='Content-Type' content='text/html; charset=windows-1251'>",
         "windows-1251"),
        ('<meta content="text/html;charset=windows-1251" http-equiv="content-type">',
         "windows-1251"),
        ('<!-- <meta charset="koi8-r"> --><meta charset="windows-1251">', "windows-1251"),
        ('<meta name="viewport" content="width=device-width"><meta charset="windows-1251">',
         "windows-1251"),
        ('<meta charset="utf-16">', "utf-8"),  # an ASCII-readable page cannot be UTF-16
        ('<meta charset="bogus"><meta charset="windows-1251">', "windows-1251"),
        ('<meta name="description" content="charset=koi8-r">', None),
        ("<p>no declaration</p>", None),
    ],
)
def test_meta_charset_prescan(head, label):
    assert meta_charset(f"<html><head>{head}</head>".encode()) == label


def test_meta_decides_when_no_transport_charset():
    data = '<meta charset="windows-1251"><p>Привет</p>'.encode("windows-1251")
    assert decode(data) == Decoded(data.decode("windows-1251"), "windows-1251", "meta")


def test_meta_past_the_first_1024_bytes_is_not_read():
    data = b"<!DOCTYPE html>" + b" " * 1024 + '<meta charset="koi8-r"><p>café</p>'.encode()
    assert meta_charset(data) is None
    assert decode(data).encoding == "utf-8"


def test_windows_1252_without_declaration_is_detected():
    expected = Decoded(FRENCH_1252.decode("windows-1252"), "windows-1252", "detected")
    assert decode(FRENCH_1252) == expected


@pytest.mark.parametrize(
    "text, codec",
    [
        ("<p>Déjà à l'aube, les pêcheurs réparent leurs filets … et boivent un thé brûlant près du quai.</p>",
         "windows-1252"),
        ("<p>Über den Fluss führt eine schöne Brücke, und die Straßenbahn fährt täglich bis spät.</p>",
         "windows-1252"),
        ("<p>Zażółć gęślą jaźń. W Łodzi pada deszcz, a ludzie śpieszą się do pracy przez mokre ulice.</p>",
         "windows-1250"),
        ("<p>Příliš žluťoučký kůň úpěl ďábelské ódy. Večer jsme šli do kavárny na náměstí.</p>",
         "windows-1250"),
    ],
)
def test_undeclared_single_byte_pages_are_read_in_their_own_encoding(text, codec):
    assert decode(text.encode(codec)) == Decoded(text, codec, "detected")


def test_meta_saying_utf8_over_windows_1252_bytes_is_used_as_a_browser_uses_it():
    data = b'<meta charset="utf-8">' + FRENCH_1252
    result = decode(data)
    assert (result.encoding, result.source) == ("utf-8", "meta")
    assert result.text == data.decode("utf-8", "replace")
    assert result.text.count("\ufffd") == sum(byte > 0x7F for byte in FRENCH_1252)


@pytest.mark.parametrize(
    "data",
    [
        f"<p>{FRENCH}</p>".encode(),
        GERMAN.encode(),
        # a German page's bytes detection read as windows-1251 (WCXB's page 2955, in short)
        "<span>\u200e<kbd>↵ Enter</kbd></span><p>Drücken Sie die Eingabetaste</p>".encode(),
        # a page cut inside its last character is UTF-8 all the same
        GERMAN.encode() + "€".encode()[:2],
    ],
)
def test_undeclared_valid_utf8_with_non_ascii_characters_is_utf8(data):
    assert decode(data) == Decoded(data.decode("utf-8", "replace"), "utf-8", "detected")


def test_a_legacy_meta_over_valid_utf8_is_a_page_saved_again_as_utf8():
    text = '<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><title>DeepMind新电脑</title>'
    assert decode(text.encode()) == Decoded(text, "utf-8", "detected")
    assert decode(text.encode("gb18030")) == Decoded(text, "gb18030", "meta")


@pytest.mark.parametrize("label", ["ISO-2022-KR", "csISO2022KR", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext",
                                   "replacement"])
def test_labels_of_the_replacement_encoding_decode_to_one_replacement_character(label):
    data = b"<p>\x1b$)C\x0e!!\x0f safe?</p>" * 3
    assert decode(data, label) == Decoded("\ufffd", "replacement", "transport")
    declared = f'<meta charset="{label}">'.encode() + data
    assert decode(declared) == Decoded("\ufffd", "replacement", "meta")
    assert decode(b"", label) == Decoded("", "replacement", "transport")


def test_meta_x_user_defined_means_windows_1252():
    data = '<meta charset="x-user-defined"><p>café “quoted”</p>'.encode("windows-1252")
    assert decode(data) == Decoded(data.decode("windows-1252"), "windows-1252", "meta")


def test_a_utf16_transport_charset_is_used_without_a_byte_order_mark():
    assert decode("<p>café</p>".encode("utf-16-le"), "UTF-16") == Decoded("<p>café</p>", "utf-16le", "transport")


def test_gbk_is_read_with_the_gb18030_decoder_as_the_encoding_standard_says():
    data = "<p>中文 𠀀</p>".encode("gb18030")  # 𠀀 needs gb18030's four-byte form
    assert decode(data, "GBK") == Decoded("<p>中文 𠀀</p>", "gb18030", "transport")


def test_cyrillic_without_declaration_is_detected():
    text = "<p>Привет, как дела? Это проверка определения кодировки страницы.</p>"
    assert decode(text.encode("windows-1251")) == Decoded(text, "windows-1251", "detected")


def test_bytes_no_encoding_fits_fall_back_to_utf8_with_replacement():
    result = decode(b"\x00\x01\x02\xff\xfe\xfd" * 10)
    assert (result.encoding, result.source) == ("utf-8", "fallback")
    assert "\ufffd" in result.text


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("ISO-8859-1", "windows-1252"),
        (" latin1 ", "windows-1252"),
        ('"utf8"', "utf-8"),
        ("cp1252", "windows-1252"),
        ("iso-8859-9", "windows-1254"),
        ("gb2312", "gb18030"),
        ("euc-kr", "cp949"),
        ("ISO-8859-2", "iso-8859-2"),
        ("koi8-r", "koi8-r"),
        ("utf-16", "utf-16le"),
        ("shift_jis", "cp932"),
        ("big5", "big5hkscs"),
        ("gbk", "gb18030"),
        ("iso-2022-kr", None),  # "replacement": no text is encoded in it
        ("x-no-such", None),
        ("cp850", None),  # a Python codec, but no web encoding
        ("utf-7", None),
        ("rot13", None),
        (None, None),
    ],
)
def test_codec_for_label(label, codec):
    assert codec_for(label) == codec


@pytest.mark.parametrize(
    ("content_type", "label"),
    [
        ("text/html; charset=UTF-8", "UTF-8"),
        ('text/html; charset="iso-8859-1"', "iso-8859-1"),
        ("text/html;charset=utf-8;q=1", "utf-8"),
        ("text/html", None),
    ],
)
def test_charset_param(content_type, label):
    assert charset_param(content_type) == label


@settings(max_examples=60, deadline=None)
@given(
    data=st.binary(max_size=300),
    label=st.sampled_from([None, "utf-8", "latin1", "shift_jis", "utf-16", "bogus", "base64", "iso-2022-kr"]),
)
def test_any_bytes_decode_to_text(data, label):
    result = decode(data, label)
    assert result.source in ("bom", "transport", "meta", "detected", "fallback")
    if result.encoding == "replacement":
        assert result.text == ("\ufffd" if data else "")
    elif result.source in ("transport", "detected", "fallback"):
        assert data.decode(result.encoding, "replace") == result.text


WCXB = "wcxb-dev-sample"


@pytest.mark.corpus(READABILITY, WCXB)
def test_the_shared_pages_saved_as_utf8_read_as_utf8():
    """WCXB keeps every page as UTF-8 (53 of the 280 declare nothing; page 2955 was read as windows-1250);
    Readability's qq page was saved again as UTF-8 under its gb2312 declaration."""
    pages = [gzip.decompress(path.read_bytes()) for path in sorted((CORPORA / WCXB / "dev" / "html").glob("*.html.gz"))]
    pages.append((READABILITY_PAGES / "qq" / "source.html").read_bytes())
    assert len(pages) == 281
    for data in pages:
        assert decode(data) == Decoded(data.decode("utf-8"), "utf-8", decode(data).source)
    assert decode(pages[-1]).source == "detected" and "DeepMind新电脑" in decode(pages[-1]).text
