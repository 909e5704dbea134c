"""Forcing trees as Graphviz pictures: DOT text, and SVG through `dot`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from engine.prolog import BadInput
from engine.advice_play import Explanation


def tree_dot(tree: dict, title: str) -> str:
    """Graphviz DOT of a forcing tree: our moves in bold, replies plain."""
    lines = ["digraph forcing_tree {",
             f"  label={_quote(title)}; labelloc=t; rankdir=LR;",
             "  node [shape=circle, width=0.25, label=\"\"];"]
    counter = iter(range(1_000_000))

    def walk(node: dict) -> str:
        me = f"n{next(counter)}"
        if "us" in node:
            lines.append(f"  {me} [style=filled, fillcolor=white];")
            child = walk(node["next"])
            lines.append(f"  {me} -> {child} [label={_quote(node['us'])}, penwidth=2];")
        elif "them" in node:
            lines.append(f"  {me} [style=filled, fillcolor=gray30];")
            for reply in node["them"]:
                child = walk(reply["next"])
                lines.append(f"  {me} -> {child} [label={_quote(reply['move'])}];")
        else:
            lines.append(f"  {me} [shape=doublecircle];")
        return me

    walk(tree)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_program() -> str:
    """Graphviz's ``dot`` program; :class:`BadInput` saying how to get it
    when it is missing."""
    dot = shutil.which("dot")
    if dot is None:
        raise BadInput("--svg needs Graphviz's `dot` program (apt-get install graphviz; "
                       "`make setup` installs it); --dot FILE writes the DOT text without it")
    return dot


def write_tree_pictures(e: Explanation, dot_path: str | None, svg_path: str | None) -> list[Path]:
    """Write the chosen forcing tree as DOT and/or SVG; returns the paths written.

    A file that cannot be written, or a ``dot`` that fails, raises
    :class:`BadInput` naming the file.
    """
    chosen = next((a for a in e.advice if a.get("tree") is not None), None)
    if chosen is None:
        raise BadInput("no forcing tree to draw: no advice is satisfiable here")
    text = tree_dot(chosen["tree"], f"rule {e.rule}, advice {chosen['name']}")
    written = []
    if dot_path:
        try:
            Path(dot_path).write_text(text)
        except OSError as error:
            raise BadInput(f"cannot write {dot_path}: {error.strerror or error}") from None
        written.append(Path(dot_path))
    if svg_path:
        _run_dot(text, svg_path)
        written.append(Path(svg_path))
    return written


def _run_dot(text: str, svg_path: str) -> None:
    try:
        subprocess.run([dot_program(), "-Tsvg", "-o", svg_path], input=text, text=True,
                       check=True, capture_output=True)
    except subprocess.CalledProcessError as failed:
        why = failed.stderr.strip().splitlines() or [f"exit code {failed.returncode}"]
        raise BadInput(f"cannot write {svg_path}: dot failed: {why[0]}") from None
    except OSError as error:
        raise BadInput(f"cannot run dot for {svg_path}: {error.strerror or error}") from None
