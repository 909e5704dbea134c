"""Errors and diagnostics of the advice language.

Every problem is a :class:`Diagnostic` with a severity, a message and the
:class:`~advice.ast.Span` it concerns.  Rendered, a diagnostic reads like a
compiler's::

    krk.adv:4:12: error: expected ':' after the rule name
    rule edge_rule if their_king_edge
                   ^

:class:`AdviceSyntaxError` (one diagnostic, raised by the parser) and
:class:`AdviceCheckError` (all the checker's diagnostics at once) both
derive from :class:`AdviceError`, so ``except AdviceError`` catches every
problem a user's table can cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .ast import Span

__all__ = [
    "Diagnostic",
    "AdviceError",
    "AdviceFileError",
    "AdviceSyntaxError",
    "AdviceCheckError",
    "source_lines",
    "printable",
    "render_diagnostics",
    "SHOWN",
]

SEVERITIES = ("error", "warning")

#: How many diagnostics :func:`render_diagnostics` shows before counting the rest.
SHOWN = 50


#: Longest part of a source line a message shows (a window around the column).
SHOWN_LINE = 160


def source_lines(source: str | Sequence[str] | None) -> Sequence[str]:
    """Split source text into lines the way the lexer counts them (on ``\\n`` only)."""
    if source is None:
        return ()
    if isinstance(source, str):
        return source.split("\n")
    return source


def printable(text: str) -> str:
    """``text`` with control and other non-printable characters escaped (tabs kept).

    Used for source lines and token values shown in messages, so that a NUL
    or an escape sequence in a user's file never reaches the terminal raw.
    The result has one character per input character wherever the input
    is printable, so carets still line up.
    """
    out = []
    for ch in text:
        if ch == "\t" or ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    return "".join(out)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a table: ``severity`` is ``'error'`` or ``'warning'``.

    ``span`` is where it is (``None`` only for problems with no place in
    the source, such as an unreadable file).
    """

    severity: str
    message: str
    span: Span | None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be 'error' or 'warning', not {self.severity!r}")

    @property
    def is_error(self) -> bool:
        """True for an error, False for a warning."""
        return self.severity == "error"

    def header(self) -> str:
        """``file:line:column: severity: message``."""
        if self.span is None:
            return f"{self.severity}: {self.message}"
        return f"{self.span.file}:{self.span.line}:{self.span.column}: {self.severity}: {self.message}"

    def render(self, source: str | Sequence[str] | None = None) -> str:
        """The header, then (when ``source`` is given) the source line and a caret under the column.

        ``source`` is the whole text or its lines (split on ``\\n``).

        >>> d = Diagnostic("error", "unknown goal predicate 'mat'", Span("t.adv", 1, 9, 1, 12))
        >>> print(d.render("better: mat"))
        t.adv:1:9: error: unknown goal predicate 'mat'
        better: mat
                ^
        """
        text = self.header()
        lines = source_lines(source)
        span = self.span
        if span is None or not 1 <= span.line <= len(lines):
            return text
        line = lines[span.line - 1].rstrip("\r")
        column = span.column
        if len(line) > SHOWN_LINE:
            # a window around the column, so that a line of a million
            # characters is not copied into the message
            start = min(max(column - 1 - SHOWN_LINE // 2, 0), max(len(line) - SHOWN_LINE, 0))
            end = start + SHOWN_LINE
            head, tail = ("..." if start else ""), ("..." if end < len(line) else "")
            column += len(head) - start
            line = head + line[start:end] + tail
        prefix = "".join("\t" if ch == "\t" else " " for ch in line[: max(column - 1, 0)])
        prefix += " " * max(column - 1 - len(line), 0)
        return f"{text}\n{printable(line)}\n{prefix}^"

    def __str__(self) -> str:
        return self.header()


class AdviceError(Exception):
    """Base class of every error the advice language raises about a user's input."""

    def __init__(self, message: str, diagnostics: Iterable[Diagnostic] = (), source: str | None = None):
        super().__init__(message)
        self.message = message
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        self.source = source

    def __reduce__(self):
        # pickled by its fields, so that it crosses to and from worker processes
        return (_rebuild, (type(self), self.__dict__))

    def __str__(self) -> str:
        if not self.diagnostics:
            return self.message
        return render_diagnostics(self.diagnostics, self.source)


def render_diagnostics(diagnostics: Sequence[Diagnostic], source: str | Sequence[str] | None,
                       shown: int = SHOWN) -> str:
    """The first ``shown`` diagnostics rendered (each with its source line
    and caret), then one line counting the rest.

    The source is split once, so the time is linear in the source and the
    number of diagnostics.

    >>> d = Diagnostic("warning", "unused", Span("t.adv", 1, 1, 1, 2))
    >>> print(render_diagnostics([d, d, d], "x", shown=1))
    t.adv:1:1: warning: unused
    x
    ^
    ... and 2 more warnings
    """
    lines = source_lines(source)
    rendered = [d.render(lines) for d in diagnostics[:shown]]
    rest = diagnostics[shown:]
    if rest:
        rendered.append("... and " + " and ".join(
            f"{n:,} more {severity}{'s' if n != 1 else ''}"
            for severity in SEVERITIES
            if (n := sum(d.severity == severity for d in rest))))
    return "\n".join(rendered)


def _rebuild(cls: type, fields: dict) -> AdviceError:
    error = cls.__new__(cls)
    Exception.__init__(error, fields["message"])
    error.__dict__.update(fields)
    return error


class AdviceFileError(AdviceError):
    """A table file that cannot be read (missing, unreadable, not UTF-8).

    ``where`` is the file (with the line, for text that is not UTF-8) and
    ``reason`` what is wrong; ``str()`` reads ``where: error: reason``.
    """

    def __init__(self, where: str, reason: str):
        super().__init__(f"{where}: error: {reason}")
        self.where = where
        self.reason = reason


class AdviceSyntaxError(AdviceError):
    """The text is not a well-formed advice table.

    ``diagnostic`` holds the message and position; ``str()`` gives the
    rendered ``file:line:column: error: ...`` with the source line and caret.
    """

    def __init__(self, message: str, span: Span, source: str | None = None):
        diagnostic = Diagnostic("error", message, span)
        super().__init__(message, [diagnostic], source)
        self.diagnostic = diagnostic
        self.span = span

    @property
    def filename(self) -> str:
        return self.span.file

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column


class AdviceCheckError(AdviceError):
    """The table is well-formed but wrong against the KB: carries every diagnostic.

    ``diagnostics`` lists all errors and warnings found (sorted by
    position); ``errors`` only the errors.  ``str()`` renders them all.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic], source: str | None = None):
        diagnostics = list(diagnostics)
        errors = [d for d in diagnostics if d.is_error]
        summary = f"{len(errors)} error{'s' if len(errors) != 1 else ''} in the advice table"
        super().__init__(summary, diagnostics, source)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]
