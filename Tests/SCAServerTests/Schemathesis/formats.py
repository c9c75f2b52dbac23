"""The string formats openapi.yaml names that JSON Schema cannot spell out, taught to
schemathesis so that its "valid" values are valid: `SchemathesisTests` loads this file as
`SCHEMATHESIS_HOOKS`.

- `display-text`: the rule of `DisplayText` (Sources/SCACore/Validation/DisplayText.swift):
  letters, digits, punctuation and symbols, words apart by single U+0020 spaces. No marks
  (a mark may not lead, and stacked ones are refused), no format, control, private-use or
  unassigned code point, and none of the letters that render as nothing (Hangul fillers).
- `iban`: an IBAN that passes `IBAN.normalized` (Sources/SCACore/Transaction/IBAN.swift):
  a country's registered length and the ISO 7064 mod 97-10 check.
- `iana-time-zone`: a zone of the time zone database, as a profile's `zoneinfo` takes it
  (Sources/SCAEngine/Users/ProfileLocale.swift), or the empty string that clears it. A few
  long-standing zones stand for the database, which no schema lists.
"""
import string

import schemathesis
from hypothesis import strategies as st

# Default-ignorable letters: they are Lo, yet render as nothing, and the server refuses them.
_INVISIBLE_LETTERS = "\u115f\u1160\u3164\uffa0"

_WORD = st.text(
    alphabet=st.characters(
        categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So"],
        exclude_characters=_INVISIBLE_LETTERS,
    ),
    min_size=1,
    max_size=12,
)

DISPLAY_TEXT = st.lists(_WORD, min_size=1, max_size=4).map(" ".join)

# Registered lengths of a few countries the server lists.
_LENGTHS = {"AT": 20, "BE": 16, "CH": 21, "DE": 22, "ES": 24, "FR": 27, "GB": 22, "IT": 27, "NL": 18, "NO": 15, "PL": 28}
_ALPHANUMERIC = string.digits + string.ascii_uppercase


def _mod97(text: str) -> int:
    return int("".join(str(int(character, 36)) for character in text)) % 97


def _iban(country: str, bban: str, spaced: bool) -> str:
    check = 98 - _mod97(bban + country + "00")
    iban = f"{country}{check:02d}{bban}"
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4)) if spaced else iban


IBAN = st.sampled_from(sorted(_LENGTHS)).flatmap(
    lambda country: st.builds(
        _iban,
        st.just(country),
        st.text(alphabet=_ALPHANUMERIC, min_size=_LENGTHS[country] - 4, max_size=_LENGTHS[country] - 4),
        st.booleans(),
    )
)

TIME_ZONE = st.sampled_from(
    ["", "Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/London",
     "America/New_York", "Asia/Kolkata", "Australia/Adelaide", "Pacific/Chatham", "Etc/UTC"]
)

schemathesis.openapi.format("display-text", DISPLAY_TEXT)
schemathesis.openapi.format("iban", IBAN)
schemathesis.openapi.format("iana-time-zone", TIME_ZONE)
