"""Text for people: explanations, forcing trees, games, verification reports."""

from __future__ import annotations

from collections import Counter

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
    if e.consulted_at is not None:
        out.append(f"consulted at {e.consulted_at}, the symmetric position that stands "
                   "for this one (the trees are shown from this one)")
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
    """A finished game's moves, numbered, with the reason for each of ours
    and, where the domain knows optimal play, the moves it lost."""
    out = []
    number = 0
    for move, side, reason in zip(record.moves, record.sides, record.reasons):
        if side == "us":
            number += 1
            line = f"{number:3}. {move:8} [{reason[0]} / {reason[1]}]"
            lost = record.lost[number - 1] if record.lost else None
            out.append(line + (f"  lost {lost}" if lost else ""))
        else:
            out.append(f"     ... {move}")
    return "\n".join(out)


def verify_text(r: dict) -> str:
    """The verify command's report.

    "proved" is written only for a complete run of every position against
    every defence with no failure; a sample or an interrupted run says in
    how many positions no failure was found.
    """
    of_population = (f" of {r['chosen']:,}" if not r["complete"]
                     else f" (a sample of {r['population']:,})" if r["sample"]
                     else "")
    against = ("every defence" if r["defender"] == "all"
               else f"the {r['defender'] or 'default'} defender")
    memory = (f", peak memory {r['peak_memory'] / 2**20:,.0f} MB a worker"
              if r.get("peak_memory") else "")
    out = [f"{r['table']}: {r['positions']:,} positions{of_population} against {against} "
           f"({r['mode']}, {r['seconds']:.1f} s{memory})"]
    out.append("  results: " + (", ".join(f"{k.replace('_', ' ')} {v:,}"
                                          for k, v in r["by_result"].items()) or "none"))
    if r.get("checkpoint") and r["checkpoint"]["positions_before"]:
        kept = r["checkpoint"]
        out.append(f"  resumed from {kept['file']}: {kept['positions_before']:,} of the positions "
                   f"were verified by earlier runs, in {kept['seconds_before']:.1f} s")
    if r["defender"] == "all":
        states = f"{r['states']:,} states"
        if r["states_repeated"]:
            states += f" ({r['states_repeated']:,} valued again by another worker)"
        worst = (f"worst case {r['max_moves']} moves (mean of the worst cases "
                 f"{r['mean_moves']:.2f}), {states}"
                 if r["mean_moves"] is not None else states)
        if r["proved"]:
            out.append(f"  proved: the table succeeds from every position; {worst}")
        elif r["failures"] == 0:
            out.append(f"  no failure in {r['positions']:,} of {r['population']:,} positions "
                       f"(not a proof: {'a sample' if r['complete'] else 'an interrupted run'}); "
                       f"{worst}")
        else:
            ref = r["shortest_refutation"]
            out.append(f"  refuted: {r['failures']:,} positions fail; where it succeeds, "
                       f"{worst}")
            out.append(f"  shortest refutation ({ref['result'].replace('_', ' ')}): "
                       f"{ref.get('fen', ref['position'])}: {' '.join(ref['line'])}")
        if r["histogram"]:
            out.append("  worst cases (moves: starts): "
                       + ", ".join(f"{k}: {v:,}" for k, v in r["histogram"].items()))
        if r.get("perfect"):
            perfect = r["perfect"]
            results = ", ".join(f"{k.replace('_', ' ')} {v:,}"
                                for k, v in perfect["by_result"].items())
            out.append(f"  against the perfect defender from the {perfect['games']:,} starts that "
                       f"succeed: {results}; mean {perfect['mean_moves']:.2f} moves, max "
                       f"{perfect['max_moves']}; optimal mean {perfect['mean_optimal']:.2f}; "
                       f"mean ratio to optimal {perfect['mean_ratio']:.3f}")
        if r.get("longest"):
            long = r["longest"]
            out.append(f"  longest, {long['moves']} moves against the worst defence: "
                       f"{long.get('fen', long['position'])}: {' '.join(long['line'])}")
            chosen = Counter(long["advice"])
            out.append("  its moves chosen by (rule/advice: moves): "
                       + ", ".join(f"{why}: {n}" for why, n in chosen.items()))
            if long.get("optimal") is not None:
                out.append(_moves_lost(long))
        if r.get("lost_by_advice"):
            out.append("  moves lost against optimal play along every start's worst line "
                       "(rule/advice: moves lost / moves made): "
                       + ", ".join(f"{why}: {n['lost']:,} / {n['moves']:,}"
                                   for why, n in r["lost_by_advice"].items()))
        return "\n".join(out)
    if r["mean_moves"] is not None:
        line = f"  moves to success: mean {r['mean_moves']:.2f}, max {r['max_moves']}"
        if r.get("mean_optimal") is not None:
            line += (f"; optimal mean {r['mean_optimal']:.2f}; mean ratio to optimal "
                     f"{r['mean_ratio']:.3f}")
        out.append(line)
        hist = r["histogram"]
        out.append("  histogram (moves: games): " + ", ".join(f"{k}: {v}" for k, v in hist.items()))
    for c in r["counterexamples"][:20]:
        out.append(f"  {c['result'].replace('_', ' ')}: {c.get('fen', c['position'])}  "
                   f"{' '.join(c['line'])}")
    if len(r["counterexamples"]) > 20:
        out.append(f"  ... {len(r['counterexamples']) - 20} more (--json lists them)")
    return "\n".join(out)


def _moves_lost(long: dict) -> str:
    """Where the longest line falls behind optimal play: the moves each
    rule/advice lost (a move loses what it adds to our optimal count)."""
    lost: Counter[str] = Counter()
    for why, n in zip(long["advice"], long["lost"]):
        if n:
            lost[why] += n
    head = f"  optimal from there: {long['optimal']} moves; "
    if not lost:
        return head + "none of its moves loses one"
    return head + "moves lost by (rule/advice: moves): " + ", ".join(
        f"{why}: {n}" for why, n in lost.most_common())


def solution_text(answer: dict) -> str:
    """An endgame's value and optimal line (``advice solve``), for people:
    the board, the verdict, and the moves in SAN with move numbers."""
    import chess

    board = chess.Board(answer["fen"])
    mover = answer["side_to_move"]
    opponent = "Black" if mover == "White" else "White"
    verdict = {"win": f"{mover} mates in {answer['dtm']}",
               "loss": f"{opponent} mates in {answer['dtm']}",
               "draw": "a draw"}[answer["value"]]
    lines = [board.unicode(empty_square="·"), "",
             f"{answer['material']}, {mover} to move: {verdict}"]
    if answer["moves"]:
        lines.append(_numbered(board, answer["moves"]))
    lines.append({"mate": "ends in mate", "stalemate": "ends in stalemate",
                  "draw": "a draw: no side can force mate"}[answer["ends"]])
    return "\n".join(lines)


def _numbered(board, sans: list[str]) -> str:
    number, white = board.fullmove_number, board.turn
    words = [] if white else [f"{number}..."]
    for san in sans:
        if white:
            words.append(f"{number}.")
        words.append(san)
        if not white:
            number += 1
        white = not white
    return " ".join(words)


def tablebase_text(f: dict) -> str:
    """The figures of an endgame's tablebase (``advice tablebase``)."""
    lines = [f"{f['material']} tablebase ({f['source']}, {f['seconds']:.2f} s)"]
    for side in ("white_to_move", "black_to_move"):
        p = f[side]["positions"]
        lines.append(f"  {side.replace('_', ' ')}: {p['total']:,} positions "
                     f"({f[side]['classes']['total']:,} up to symmetry): {p['wins']:,} won, "
                     f"{p['draws']:,} drawn, {p['losses']:,} lost")
        for label, key in (("won in", "wins_in"), ("lost in", "losses_in")):
            if p[key]:
                lines.append(f"    {label} N moves: " + ", ".join(
                    f"{n}: {count:,}" for n, count in p[key].items()))
    if f["max_dtm"]:
        lines.append(f"  longest win: mate in {f['max_dtm']} "
                     f"({f['max_dtm_side_to_move'].replace('_', ' ')}, "
                     f"{f['max_dtm_classes']:,} up to symmetry), e.g. {f['max_dtm_fen']}")
    else:
        lines.append("  no side can force mate")
    return "\n".join(lines)
