"""The PDN lexer: a text into tokens (PDN 3.0's reading grammar, pdn.fmjd.org "PDN Grammars"), each with its
position, and an error token for what is not PDN (a tag without its quotes, a comment never closed, a bad move
word), so that :mod:`rig.pdn.reader` can report it with its line and column and go on with the next game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

__all__ = ["Token", "tokens"]

_SQ = r"(?:[a-jA-J](?:10|[1-9])|\d{1,2})"
_MOVE = re.compile(rf"({_SQ}(?:[ \t]*[-xX:\u00d7][ \t]*{_SQ})+|[a-hA-H][1-8][a-hA-H][1-8])(?![\w.])"
                   r"((?:[!?]{1,2}|\([!?]{1,2}\)))?")
_RESULT = re.compile(r"(1/2-1/2|\u00bd-\u00bd|2-0|0-2|1-1|1-0|0-1|0-0|1/2(?!-)|\*)(?![\w/\u00bd-])")
_NUMBER = re.compile(r"(\d+)(\.\.\.|\u2026|\.)")
_ELLIPSIS = re.compile(r"\.\.\.|\u2026|\.\.")
_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:\\.|[^"\\\n])*)"[ \t]*\]')
_TAG_LINE = re.compile(r'^[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]*"', re.MULTILINE)
_SETUP = re.compile(r'/[ \t]*FEN[ \t]*"([^"\n]*)"[ \t]*/', re.IGNORECASE)
_NAG = re.compile(r"\$\d+")
_STRENGTH = re.compile(r"[!?]{1,2}(?![\w])")
_WORD = re.compile(r"[^\s{}()\[\];]+")


@dataclass(frozen=True)
class Token:
    """One token at ``pos``: its ``text`` and what it carries (a tag's name and value, a move and its
    strength, a number and its dots, an error's message)."""

    kind: str  # tag comment open close setup nag result number move error
    pos: int
    text: str
    value: str = ""
    value2: str = ""
    resync: bool = False  # an error after which the current game cannot be delimited


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text`` in order; white space and ``%``/``;`` line comments are skipped."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n\f\v\ufeff":
            i += 1
            continue
        line_start = i == 0 or text[i - 1] == "\n"
        if c == "%" and line_start or c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c == "[":
            m = _TAG.match(text, i)
            if m:
                yield Token("tag", i, m.group(0), m.group(1), re.sub(r"\\(.)", r"\1", m.group(2)))
                i = m.end()
                continue
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield Token("error", i, text[i:j], _tag_problem(text[i:j]))
            i = j
            continue
        if c == "{":
            j = text.find("}", i + 1)
            if j < 0:
                yield Token("error", i, c, "unterminated comment: '{' has no closing '}'", resync=True)
                m = _TAG_LINE.search(text, i + 1)
                i = n if m is None else m.start()
                continue
            yield Token("comment", i, text[i:j + 1], text[i + 1:j])
            i = j + 1
            continue
        if c == "}":
            yield Token("error", i, c, "'}' without an opening '{'")
            i += 1
            continue
        if c == "(":
            yield Token("open", i, c)
            i += 1
            continue
        if c == ")":
            yield Token("close", i, c)
            i += 1
            continue
        if c == "/":
            m = _SETUP.match(text, i)
            if m:
                yield Token("setup", i, m.group(0), m.group(1))
                i = m.end()
                continue
            word = _word(text, i)
            yield Token("error", i, word, f"malformed setup {word!r}: expected /FEN \"...\"/")
            i += len(word)
            continue
        if c == "$":
            m = _NAG.match(text, i)
            if m:
                yield Token("nag", i, m.group(0))
                i = m.end()
                continue
        for kind, rx in (("result", _RESULT), ("number", _NUMBER), ("move", _MOVE)):
            m = rx.match(text, i)
            if m:
                yield Token(kind, i, m.group(0), m.group(1), (m.group(2) if rx.groups > 1 else None) or "")
                i = m.end()
                break
        else:
            m = _ELLIPSIS.match(text, i) or _STRENGTH.match(text, i)
            if m:
                i = m.end()
                continue
            word = _word(text, i)
            yield Token("error", i, word, f"bad move token {word!r}" if any(ch.isdigit() for ch in word)
                         else f"unexpected {word!r}")
            i += len(word)


def _word(text: str, i: int) -> str:
    """The word starting at ``i`` (at least its first character)."""
    m = _WORD.match(text, i)
    return m.group(0) if m else text[i]


def _tag_problem(line: str) -> str:
    m = re.match(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)?[ \t]*("?)', line)
    name = m.group(1) if m else None
    if m is None or not name:
        return f"malformed tag {line.strip()!r}: expected [Name \"value\"]"
    if not m.group(2):
        return f"malformed tag {name}: the value must be in double quotes"
    rest = line[m.end():]
    k = 0
    while k < len(rest):
        if rest[k] == "\\":
            k += 2
            continue
        if rest[k] == '"':
            return f"unterminated tag {name}: no closing ']'"
        k += 1
    return f"unterminated tag {name}: the value has no closing '\"'"
