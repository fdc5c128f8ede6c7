"""Decoding: bytes -> text in the HTML standard's order, the encoding and deciding step recorded."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.corpus.decoding import Decoded, charset_param, codec_for, decode, meta_charset

FRENCH = "Le café – naïve “quoted” text"
FRENCH_1252 = f"<html><body><p>{FRENCH}</p></body></html>".encode("windows-1252")


@pytest.mark.parametrize(
    ("data", "text", "encoding"),
    [
        (codecs.BOM_UTF8 + "<p>café</p>".encode(), "<p>café</p>", "utf-8"),
        (codecs.BOM_UTF16_LE + "<p>café</p>".encode("utf-16-le"), "<p>café</p>", "utf-16-le"),
        (codecs.BOM_UTF16_BE + "<p>café</p>".encode("utf-16-be"), "<p>café</p>", "utf-16-be"),
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


@pytest.mark.parametrize("label", ["no-such-charset", "base64", "utf-7", ""])
def test_a_transport_label_python_cannot_use_falls_through(label):
    data = '<meta charset="koi8-r"><p>Привет</p>'.encode("koi8-r")
    assert decode(data, label).source == "meta"


def test_a_transport_charset_that_fails_strictly_falls_through():
    data = '<meta charset="windows-1252"><p>café</p>'.encode("windows-1252")
    assert decode(data, "utf-8") == Decoded(data.decode("windows-1252"), "windows-1252", "meta")


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


def test_meta_saying_utf8_over_windows_1252_bytes_is_overruled_by_detection():
    data = b'<meta charset="utf-8">' + FRENCH_1252
    result = decode(data)
    assert (result.encoding, result.source) == ("windows-1252", "detected")
    assert FRENCH in result.text


def test_utf8_without_declaration_is_detected():
    data = f"<p>{FRENCH}</p>".encode()
    assert decode(data) == Decoded(f"<p>{FRENCH}</p>", "utf-8", "detected")


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
        ("ISO-8859-2", "iso8859-2"),
        ("koi8-r", "koi8-r"),
        ("utf-16", "utf-16-le"),
        ("x-no-such", None),
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
    label=st.sampled_from([None, "utf-8", "latin1", "shift_jis", "utf-16", "bogus", "base64"]),
)
def test_any_bytes_decode_to_text_with_a_codec_python_knows(data, label):
    result = decode(data, label)
    assert codecs.lookup(result.encoding)
    assert result.source in ("bom", "transport", "meta", "detected", "fallback")
    if result.source in ("transport", "meta"):
        assert data.decode(result.encoding) == result.text  # a declaration is only taken if it fits
