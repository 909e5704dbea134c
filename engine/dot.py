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


def write_tree_pictures(e: Explanation, dot_path: str | None, svg_path: str | None) -> list[Path]:
    """Write the chosen forcing tree as DOT and/or SVG; returns the paths written."""
    chosen = next((a for a in e.advice if a.get("tree") is not None), None)
    if chosen is None:
        raise BadInput("no forcing tree to draw: no advice is satisfiable here")
    text = tree_dot(chosen["tree"], f"rule {e.rule}, advice {chosen['name']}")
    written = []
    if dot_path:
        Path(dot_path).write_text(text)
        written.append(Path(dot_path))
    if svg_path:
        dot = shutil.which("dot")
        if dot is None:
            raise BadInput("--svg needs Graphviz's `dot` program (apt-get install graphviz); "
                           "--dot FILE writes the DOT text without it")
        subprocess.run([dot, "-Tsvg", "-o", svg_path], input=text, text=True, check=True)
        written.append(Path(svg_path))
    return written
