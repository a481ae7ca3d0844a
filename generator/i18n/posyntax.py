"""A PO catalog read as strictly as GNU msgfmt --check reads it, every fault at its line.

polib reads what it can and drops the rest without a word: `msgstr "\\q"` (msgfmt: "invalid
control sequence"), a msgid with no msgstr, msgstr[N] with no msgid_plural, a duplicate
message. A catalog msgfmt rejects would then be published by Rulesmith and refused by every
gettext tool a translator uses. So before polib reads a catalog, `faults` tokenizes it the way
gettext's lexer does (keywords, strings with their escapes, comments, `#~` obsolete entries,
`#|` previous strings) and walks the entries the way msgfmt's grammar does, then checks what
`msgfmt --check` checks: the header (present; Plural-Forms with a whole nplurals and an
expression that parses), duplicate messages, msgstr[N] numbered 0, 1, 2... and as many as the
header's nplurals, leading and trailing newlines alike in source and translation, and the
placeholders of c-format, python-format and python-brace-format entries (other formats msgfmt
knows, such as java-format or sh-format, are not compared). Each fault is reported at the line
msgfmt names (but for a string left open: msgfmt names the line after it, here it is the line
where the string opens); untranslated, fuzzy and obsolete entries are left out of the checks on
translations, as msgfmt leaves them out.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass, field

KEYWORDS = ("msgctxt", "msgid", "msgid_plural", "msgstr", "domain")
_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "\\": "\\", '"': '"'}
_OCTAL, _HEX = "01234567", "0123456789abcdefABCDEF"
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"\s*(\d+)\s*\]")


@dataclass(frozen=True)
class Fault:
    """One thing msgfmt would reject: what, and where (line, and column where msgfmt gives one)."""

    message: str
    line: int
    col: int = 0
    hint: str = ""


NO_PLURAL_FORMS = "the header gives no Plural-Forms (nplurals=N; plural=EXPRESSION)"
ESCAPES_HINT = 'the escapes a catalog knows are \\n \\t \\" \\\\ (a backslash itself), \\a \\b \\f \\r \\v, \\NNN and \\xHH'


@dataclass
class _Token:
    kind: str          # a keyword, "string", "comment", "flags"
    line: int
    col: int
    obsolete: bool
    value: str = ""
    index: int | None = None   # msgstr[N]


@dataclass
class _Entry:
    line: int                  # of its msgid
    obsolete: bool
    flags: set[str]
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    forms: list[str] = field(default_factory=list)
    msgstr_line: int = 0


class _Lexer:
    def __init__(self) -> None:
        self.tokens: list[_Token] = []
        self.faults: list[Fault] = []

    def line(self, number: int, text: str) -> None:
        obsolete = text.startswith("#~")
        rest, offset = (text[2:], 2) if obsolete else (text, 0)
        if rest.startswith("|") or (not obsolete and rest.startswith("#|")):  # the previous msgid of a fuzzy entry
            start = rest.index("|") + 1
            self._tokens(number, rest[start:], offset + start, obsolete, previous=True)
            return
        if not obsolete and text.startswith("#,"):
            flags = {f.strip() for f in text[2:].split(",") if f.strip()}
            self.tokens.append(_Token("flags", number, 1, False, value=",".join(sorted(flags))))
            return
        self._tokens(number, rest, offset, obsolete)

    def _tokens(self, number: int, text: str, offset: int, obsolete: bool, previous: bool = False) -> None:
        at = 0
        while at < len(text):
            char = text[at]
            if char in " \t\r\f\v":
                at += 1
            elif char == "#":
                self.tokens.append(_Token("comment", number, offset + at + 1, obsolete))
                return
            elif char == '"':
                at = self._string(number, text, at, offset, obsolete, previous)
                if at < 0:
                    return
            elif (word := _WORD.match(text, at)) is not None:
                at = self._keyword(number, text, word, offset, obsolete, previous)
                if at < 0:
                    return
            else:
                self.stop(Fault("syntax error", number, offset + at + 1), obsolete)
                return

    def stop(self, fault: Fault, obsolete: bool) -> None:
        """A fault that ends the line: the grammar passes over what follows up to the next entry."""
        self.faults.append(fault)
        self.tokens.append(_Token("junk", fault.line, fault.col, obsolete))

    def _keyword(self, number: int, text: str, word: re.Match, offset: int, obsolete: bool, previous: bool) -> int:
        name, at = word.group(), word.end()
        if name not in (("msgctxt", "msgid", "msgid_plural") if previous else KEYWORDS):
            self.stop(Fault(f'keyword "{name}" unknown', number, offset + word.start() + 1), obsolete)
            return -1
        index = None
        if text[at:].lstrip().startswith("["):
            found = _NUMBER.match(text, text.index("[", at) + 1)
            if name != "msgstr" or found is None:
                self.stop(Fault("syntax error", number, offset + at + 1), obsolete)
                return -1
            index, at = int(found.group(1)), found.end()
        self.tokens.append(_Token(("prev_" if previous else "") + name, number, offset + word.start() + 1, obsolete,
                                  index=index))
        return at

    def _string(self, number: int, text: str, at: int, offset: int, obsolete: bool, previous: bool) -> int:
        """Read the string starting at text[at] (a quote): a fault for each bad escape and for a
        string the line ends in (msgfmt reads on, as here). The offset after it, or -1 at the end."""
        value: list[str] = []
        at += 1
        while at < len(text) and text[at] != '"':
            if text[at] != "\\":
                value.append(text[at])
                at += 1
                continue
            escaped, at = self._escape(text, at + 1)
            if escaped is None:
                self.faults.append(Fault("invalid control sequence", number, offset + at + 1, ESCAPES_HINT))
            else:
                value.append(escaped)
        self.tokens.append(_Token("prev_string" if previous else "string", number, offset + at + 1, obsolete,
                                  value="".join(value)))
        if at >= len(text):
            self.faults.append(Fault("end-of-line within string: the string is not closed", number))
            return -1
        return at + 1

    @staticmethod
    def _escape(text: str, at: int) -> tuple[str | None, int]:
        """The character an escape stands for (text[at] follows the backslash) and the offset
        after it; None and the offset msgfmt names when it is no escape msgfmt knows."""
        char = text[at:at + 1]
        if char in _ESCAPES and char:
            return _ESCAPES[char], at + 1
        if char and char in _OCTAL:
            end = at
            while end < len(text) and end < at + 3 and text[end] in _OCTAL:
                end += 1
            return chr(int(text[at:end], 8)), end
        if char == "x":
            end = at + 1
            while end < len(text) and text[end] in _HEX:
                end += 1
            return (chr(int(text[at + 1:end], 16)), end) if end > at + 1 else (None, end)
        return None, at


class _Grammar:
    """Entries from tokens, as msgfmt's grammar reads them; faults where it stops."""

    def __init__(self, tokens: list[_Token], faults: list[Fault], end: int):
        self.tokens, self.faults, self.end = tokens, faults, end  # end: the line msgfmt names for the end of the file
        self.at = 0
        self.entries: list[_Entry] = []
        self.flags: set[str] = set()

    def peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def strings(self, kind: str = "string", obsolete: bool | None = None) -> str | None:
        """The strings that follow a keyword, joined; None (a fault at the next token) when none does."""
        parts = []
        while (token := self.peek()) is not None and token.kind == kind:
            if obsolete is not None and token.obsolete != obsolete:
                self.faults.append(Fault("inconsistent use of #~", token.line))
            parts.append(token.value)
            self.at += 1
        if not parts:
            self.syntax_error()
            return None
        return "".join(parts)

    def syntax_error(self, past_comments: bool = False) -> None:
        """A syntax error at the next token (with `past_comments`, at the first after them: msgfmt
        reads a comment inside an entry as nothing and stops at what follows it)."""
        ahead = self.at
        while past_comments and ahead < len(self.tokens) and self.tokens[ahead].kind in ("comment", "flags"):
            ahead += 1
        token = self.tokens[ahead] if ahead < len(self.tokens) else None
        if ahead > self.at and token is not None:  # msgfmt names the last of the comments
            token = _Token(token.kind, self.tokens[ahead - 1].line, 0, token.obsolete, index=token.index)
        if token is not None and token.kind == "junk":  # the lexer said it already
            return
        if token is not None:
            what = "a string" if token.kind.endswith("string") else "a comment" if token.kind in ("comment", "flags") \
                else f"'{token.kind.replace('prev_', '#| ')}'" + (f"[{token.index}]" if token.index is not None else "")
            self.faults.append(Fault(f"syntax error: {what} cannot stand here", token.line, token.col))
        else:
            self.faults.append(Fault("syntax error: the catalog ends inside an entry", self.end))

    def run(self) -> list[_Entry]:
        while (token := self.peek()) is not None:
            if token.kind in ("msgctxt", "msgid"):
                self.entry()
            elif token.kind.startswith("prev_"):
                self.previous()
            elif token.kind == "domain":
                self.at += 1
                self.strings()
            elif token.kind == "flags":
                self.flags |= set(token.value.split(","))
                self.at += 1
            elif token.kind == "comment":
                self.at += 1
            elif token.kind == "string":  # a string continues a keyword's, never a comment or nothing
                self.syntax_error()
                while (after := self.peek()) is not None and after.kind == "string":
                    self.at += 1
            elif token.kind == "junk":
                self.at += 1
                while (after := self.peek()) is not None and after.kind not in ("msgctxt", "msgid", "comment", "flags"):
                    self.at += 1
            else:
                self.syntax_error()
                self.at += 1
            if token.kind not in ("flags", "comment") and not token.kind.startswith("prev_"):
                self.flags = set()
        return self.entries

    def previous(self) -> None:
        """A fuzzy entry's previous text (#| msgctxt, #| msgid, #| msgid_plural, in that order),
        which stands right before the entry's own msgctxt or msgid: no other comment between."""
        order = ["prev_msgctxt", "prev_msgid", "prev_msgid_plural"]
        while (token := self.peek()) is not None and token.kind.startswith("prev_"):
            if token.kind not in order:
                self.syntax_error()
                while (after := self.peek()) is not None and after.kind.startswith("prev_"):
                    self.at += 1
                return
            del order[:order.index(token.kind) + 1]
            self.at += 1
            if self.strings("prev_string") is None:
                return
        between = False
        while (token := self.peek()) is not None and token.kind in ("comment", "flags"):
            between = True
            if token.kind == "flags":
                self.flags |= set(token.value.split(","))
            self.at += 1
        if between or token is None or token.kind not in ("msgctxt", "msgid"):
            self.syntax_error()

    def entry(self) -> None:
        first = self.peek()
        entry = _Entry(first.line, first.obsolete, self.flags)
        if first.kind == "msgctxt":
            self.at += 1
            entry.context = self.strings(obsolete=entry.obsolete)
            if entry.context is None or (self.peek() is None or self.peek().kind != "msgid"):
                if entry.context is not None:
                    self.syntax_error(past_comments=True)
                return
        keyword = self.peek()
        entry.line = keyword.line
        self._consistent(entry, keyword)
        self.at += 1
        msgid = self.strings(obsolete=entry.obsolete)
        if msgid is None:
            return
        entry.msgid = msgid
        self.translations(entry)

    def _consistent(self, entry: _Entry, token: _Token) -> None:
        if token.obsolete != entry.obsolete:
            self.faults.append(Fault("inconsistent use of #~", token.line))

    def translations(self, entry: _Entry) -> None:
        token = self.peek()
        if token is not None and token.kind == "msgid_plural":
            self._consistent(entry, token)
            self.at += 1
            entry.plural = self.strings(obsolete=entry.obsolete)
            if entry.plural is None:
                return
            token = self.peek()
            if token is None or token.kind != "msgstr":
                self.faults.append(Fault("missing 'msgstr[]' section", entry.line))
                return
            if token.index is None:
                self.syntax_error()
                return
        if token is None or token.kind != "msgstr":
            self.faults.append(Fault("missing 'msgstr' section", entry.line, 0,
                                    'give the entry its msgstr (msgstr "" when it is not translated yet)'))
            return
        if entry.plural is None and token.index is not None:
            self.faults.append(Fault("missing 'msgid_plural' section", entry.line, 0,
                                    "msgstr[N] belongs to a word with forms for counts: add its msgid_plural, "
                                    "or write a plain msgstr"))
        entry.msgstr_line = token.line
        self.forms(entry)
        self.entries.append(entry)

    def forms(self, entry: _Entry) -> None:
        """The msgstr, or the msgstr[N] numbered 0, 1, 2... (checked with or without a msgid_plural)."""
        indexed = self.peek().index is not None
        while (token := self.peek()) is not None and token.kind == "msgstr":
            if entry.forms and (token.index is None or not indexed):
                break
            self._consistent(entry, token)
            if indexed and token.index != len(entry.forms):
                self.faults.append(Fault("first plural form has nonzero index" if not entry.forms
                                         else "plural form has wrong index", token.line))
            self.at += 1
            entry.forms.append(self.strings(obsolete=entry.obsolete) or "")


# -- what msgfmt --check checks on the entries read ---------------------------------------

_NPLURALS = re.compile(r"nplurals\s*=\s*([^;\s]*)")
_PLURAL = re.compile(r"plural\s*=\s*([^;]*)")


def _header(entries: list[_Entry], faults: list[Fault]) -> tuple[int | None, int]:
    """Check the header entry; the number of forms it declares (None when it declares none) and
    the line of its msgstr."""
    header = next((e for e in entries if not e.obsolete and e.msgid == "" and e.context is None), None)
    if header is None:
        faults.append(Fault('the catalog has no header (the entry msgid "" whose msgstr says '
                            '"Content-Type: text/plain; charset=UTF-8")', 1, 0,
                            "'rulesmith i18n update LANG GAME' writes a catalog with its header"))
        return None, 1
    text = header.forms[0] if header.forms else ""
    line = next((l for l in text.split("\n") if l.strip().lower().startswith("plural-forms:")), None)
    if line is None:
        return None, header.msgstr_line
    count, rule = _NPLURALS.search(line), _PLURAL.search(line)
    if count is None or not count.group(1).isdigit() or int(count.group(1)) == 0:
        faults.append(Fault("invalid nplurals value", header.msgstr_line))
        return None, header.msgstr_line
    try:
        gettext.c2py(rule.group(1).strip() if rule else "")
    except (ValueError, RecursionError, SyntaxError):
        faults.append(Fault("invalid plural expression", header.msgstr_line))
    return int(count.group(1)), header.msgstr_line


def _duplicates(entries: list[_Entry], faults: list[Fault]) -> None:
    seen: dict[tuple[str | None, str], int] = {}
    for entry in entries:
        key = (entry.context, entry.msgid)
        if key in seen:
            faults.append(Fault(f"duplicate message definition (the first is at line {seen[key]})", entry.line, 0,
                                "keep one of the two entries"))
        else:
            seen[key] = entry.line


def _newlines(entry: _Entry, faults: list[Fault]) -> None:
    pairs = [("msgid_plural", entry.plural)] if entry.plural is not None else []
    pairs += [("msgstr" if entry.plural is None else f"msgstr[{i}]", form) for i, form in enumerate(entry.forms) if form]
    for name, text in pairs:
        for side, test in (("begin", str.startswith), ("end", str.endswith)):
            if entry.msgid and text and test(entry.msgid, "\n") != test(text, "\n"):
                faults.append(Fault(f"'msgid' and '{name}' entries do not both {side} with '\\n'", entry.msgstr_line))
                return


_C_FORMAT = re.compile(r"%(?:(\d+)\$)?[-#0 +'I]*(?:\*(?:\d+\$)?|\d+)?(?:\.(?:\*(?:\d+\$)?|\d*))?"
                       r"(?:hh|h|ll|l|L|q|j|z|Z|t)?([diouxXeEfFgGaAcspnm%])")
_PY_FORMAT = re.compile(r"%(?:\(([^)]*)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")
_BRACE = re.compile(r"\{\{|\}\}|\{([^{}!:]*)[^{}]*\}")
_KINDS = {"i": "d", "u": "d", "X": "x", "E": "e", "f": "e", "F": "e", "g": "e", "G": "e", "a": "e", "A": "e",
          "r": "s"}


def _c_arguments(text: str) -> dict[str, str]:
    found, sequence = {}, 0
    for match in _C_FORMAT.finditer(text):
        if match.group(2) in "%m":
            continue
        sequence += 1
        found[match.group(1) or str(sequence)] = _KINDS.get(match.group(2), match.group(2))
    return found


def _python_arguments(text: str) -> dict[str, str]:
    found, sequence = {}, 0
    for match in _PY_FORMAT.finditer(text):
        if match.group(2) == "%":
            continue
        sequence += 1
        kind = _KINDS.get(match.group(2), match.group(2))
        found[f"'{match.group(1)}'" if match.group(1) is not None else str(sequence)] = "s" if kind == "a" else kind
    return found


def _brace_arguments(text: str) -> dict[str, str]:
    return {f"'{m.group(1)}'": "" for m in _BRACE.finditer(text) if m.group(0) not in ("{{", "}}")}


_FORMATS = {"c-format": _c_arguments, "python-format": _python_arguments, "python-brace-format": _brace_arguments}


def _formats(entry: _Entry, faults: list[Fault]) -> None:
    for flag, arguments in _FORMATS.items():
        if flag not in entry.flags:
            continue
        source = arguments(entry.msgid)
        for form in (f for f in entry.forms if f):
            translated = arguments(form)
            problem = next((f"a format specification for argument {name} doesn't exist in 'msgstr'"
                            for name in source if name not in translated and entry.plural is None), None) or next(
                (f"a format specification for argument {name}, as in 'msgstr', doesn't exist in 'msgid'"
                 for name in translated if name not in source), None) or next(
                (f"format specifications in 'msgid' and 'msgstr' for argument {name} are not the same"
                 for name, kind in translated.items() if source.get(name) != kind), None)
            if problem:
                faults.append(Fault(problem, entry.msgstr_line))
                return


def _translations(entries: list[_Entry], header: tuple[int | None, int], faults: list[Fault]) -> None:
    forms, header_line = header
    miscounted = False
    for entry in entries:
        if entry.obsolete or "fuzzy" in entry.flags or not any(entry.forms) or entry.msgid == "":
            continue
        if entry.plural is not None:
            if forms is None:
                faults.append(Fault(f"the entry has forms for counts (msgstr[N]) but {NO_PLURAL_FORMS}",
                                    entry.msgstr_line, 0, "add 'Plural-Forms: nplurals=N; plural=EXPRESSION;' to the header"))
            elif len(entry.forms) != forms:
                faults.append(Fault(f"the header's Plural-Forms says nplurals={forms}, but the entry has "
                                    f"{len(entry.forms)} form(s)", entry.msgstr_line, 0,
                                    f"give the word {forms} forms (msgstr[0] to msgstr[{forms - 1}])"))
                if not miscounted:  # msgfmt names the header too, once
                    faults.append(Fault(f"nplurals={forms} here, but the entry at line {entry.msgstr_line} has "
                                        f"{len(entry.forms)} form(s)", header_line, 0,
                                        "make nplurals the number of forms the language has"))
                miscounted = True
        _newlines(entry, faults)
        _formats(entry, faults)


def _lines(text: str):
    """(number, line) of the catalog as msgfmt reads it: a backslash that ends a line joins it
    to the next (as in C), the joined line numbered as msgfmt names it, one past its last part."""
    pending, number = "", 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        yield number + (1 if pending else 0), pending + line
        pending = ""
    if pending:
        yield number, pending


def faults(text: str) -> list[Fault]:
    """Everything `msgfmt --check` rejects in the catalog `text`, in the order of its lines."""
    lexer = _Lexer()
    for number, line in _lines(text):
        lexer.line(number, line.lstrip(" \t") if not line.startswith("#") else line)
    found = list(lexer.faults)
    entries = _Grammar(lexer.tokens, found, text.count("\n") + 1).run()
    _duplicates(entries, found)
    _translations(entries, _header(entries, found), found)
    return sorted(found, key=lambda f: (f.line, f.col))
