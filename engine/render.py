"""Text for people: explanations, forcing trees, games, verification reports."""

from __future__ import annotations

from engine.advice_play import Explanation, GameRecord


def tree_lines(node: dict, indent: str = "  ") -> list[str]:
    """A forcing tree as indented lines of moves (ours, then each reply)."""
    lines: list[str] = []

    def walk(n: dict, depth: int) -> None:
        pad = indent * depth
        if "us" in n:
            lines.append(f"{pad}{n['us']}")
            walk(n["next"], depth + 1)
        elif "them" in n:
            for reply in n["them"]:
                lines.append(f"{pad}... {reply['move']}")
                walk(reply["next"], depth + 1)
        elif depth == 0:
            lines.append(f"{pad}(the root: the better-goal holds)")

    walk(node, 0)
    return lines


def explanation_text(e: Explanation) -> str:
    """The explain command's report."""
    out = []
    for rule in e.rules:
        if rule["holds"]:
            out.append(f"rule {rule['name']}: condition holds -> fires")
        else:
            out.append(f"rule {rule['name']}: condition fails ({rule['reason']})")
    if e.rule is None:
        out.append("no rule applies")
        return "\n".join(out)
    for report in e.advice:
        name, status = report["name"], report["status"]
        if status == "satisfiable":
            out.append(f"  advice {name}: satisfiable; forcing tree "
                       f"({report['tree_positions']} positions):")
            out += ["      " + line for line in tree_lines(report["tree"])]
        elif status == "holding_failed":
            out.append(f"  advice {name}: holding-goal fails at the root: {report['reason']}")
        else:
            out.append(f"  advice {name}: {report['reason']}")
    if e.chosen is None:
        out.append(f"no advice of rule {e.rule} is satisfiable")
    else:
        out.append(f"chosen: rule {e.rule}, advice {e.chosen}")
    return "\n".join(out)


def game_moves_text(record: GameRecord) -> str:
    """A finished game's moves, numbered, with the reason for each of ours."""
    out = []
    number = 0
    for move, side, reason in zip(record.moves, record.sides, record.reasons):
        if side == "us":
            number += 1
            out.append(f"{number:3}. {move:8} [{reason[0]} / {reason[1]}]")
        else:
            out.append(f"     ... {move}")
    return "\n".join(out)
