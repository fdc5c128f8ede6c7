"""Which of jusText's stoplists fits a page: from the language code in `<html lang>`.

jusText names its stoplists by language name ("German"); pages name their language by BCP 47 tag
("de", "de-AT"). Only the primary subtag counts. Unknown or missing languages get English.
"""

from __future__ import annotations

import re

DEFAULT_STOPLIST = "English"

# ISO 639 code (639-1 where one exists, else 639-3) -> jusText stoplist name.
STOPLIST_BY_CODE: dict[str, str] = {
    "af": "Afrikaans", "an": "Aragonese", "ar": "Arabic", "ast": "Asturian", "az": "Azerbaijani",
    "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "bpy": "Bishnupriya_Manipuri",
    "br": "Breton", "bs": "Bosnian", "ca": "Catalan", "ceb": "Cebuano", "cs": "Czech",
    "cv": "Chuvash", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque",
    "fa": "Persian", "fi": "Finnish", "fr": "French", "fy": "West_Frisian", "ga": "Irish",
    "gl": "Galician", "gu": "Gujarati", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian",
    "ht": "Haitian", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian", "ig": "Igbo",
    "io": "Ido", "is": "Icelandic", "it": "Italian", "jv": "Javanese", "ka": "Georgian",
    "kk": "Kazakh", "kn": "Kannada", "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz",
    "la": "Latin", "lb": "Luxembourgish", "lmo": "Lombard", "lt": "Lithuanian", "lv": "Latvian",
    "mk": "Macedonian", "ml": "Malayalam", "mr": "Marathi", "ms": "Malay", "mt": "Maltese",
    "nap": "Neapolitan", "nb": "Norwegian_Bokmal", "nds": "Low_Saxon", "ne": "Nepali",
    "new": "Newar", "nl": "Dutch", "nn": "Norwegian_Nynorsk", "no": "Norwegian_Bokmal",
    "oc": "Occitan", "pl": "Polish", "pms": "Piedmontese", "pnb": "Western_Panjabi",
    "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian", "rup": "Aromanian",
    "scn": "Sicilian", "sgs": "Samogitian", "sh": "Serbo_Croatian", "sk": "Slovak",
    "sl": "Slovenian", "sq": "Albanian", "sr": "Serbian", "su": "Sundanese", "sv": "Swedish",
    "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "tk": "Turkmen", "tl": "Tagalog",
    "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese",
    "vo": "Volapuk", "wa": "Walloon", "war": "Waray_Waray", "yo": "Yoruba",
}  # fmt: skip

# The opening <html> tag's lang (or xml:lang) attribute; a regex spares a second parse of the page.
HTML_LANG = re.compile(
    r"<html\b[^>]*?\s(?:xml:)?lang\s*=\s*[\"']?\s*([a-z]{2,3})\b", re.IGNORECASE
)


def stoplist_name(html: str) -> str:
    """The jusText stoplist for the page's declared language; English when unknown."""
    match = HTML_LANG.search(html)
    if match is None:
        return DEFAULT_STOPLIST
    return STOPLIST_BY_CODE.get(match.group(1).lower(), DEFAULT_STOPLIST)
