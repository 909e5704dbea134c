"""Keep the finished slices of a long verification in a file, so that a
run that stops (Ctrl-C, a crash, a machine shut down) goes on where it
stopped when the same command is given again.

The file holds JSON lines: the first names the run (:func:`identity`),
each other one is a finished slice: its bounds, its result, the states
its proof valued (with their values, for the workers of the next run)
and the seconds its run had taken when it finished. A slice's result does not
depend on the slices verified before it (a state's value does not depend
on the memo it was found with), so the slices of several runs merge into
the same report as one run's.

A file that is not such a checkpoint, or one written for another run
(another table, other Prolog sources, other options), is refused and
left as it is.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.prolog import BadInput, EngineError, session

MAGIC = "advice verify checkpoint"
VERSION = 1


def identity(options: dict, sources: list[str]) -> dict:
    """What a checkpoint must match to be resumed: ``options`` (the job's
    options and its counts of start positions), SWI-Prolog's version,
    and a digest of the contents of ``sources``, the Prolog files the
    run reads (:func:`job_sources`). A copy of the same files elsewhere
    resumes the run; an edit to any of them starts it again, an edit to
    a file the run does not read does not."""
    digests = sorted(hashlib.sha256(Path(file).read_bytes()).hexdigest() for file in sources)
    version = session().ask("current_prolog_flag(version, V), format(string(Out), '~w', [V])",
                            what="asking SWI-Prolog's version")
    sources_digest = hashlib.sha256("\n".join(digests).encode()).hexdigest()
    return {**options, "swipl": version, "sources": sources_digest}


def job_sources() -> list[str]:
    """The Prolog files this process has loaded, and those they include,
    SWI-Prolog's own library aside (:func:`identity` names it by its
    version). Asked of a fresh worker that loaded nothing but a run's
    table (engine.verify), they are the files the run reads: the
    compiled table, its domain, what they load, and the engine's own
    Prolog; not those of other tables, as in a process where they were
    loaded before."""
    return session().ask(
        "current_prolog_flag(home, Home), "
        "findall(F, ( source_file(S), ( F = S ; source_file_property(S, includes(F, _)) ), "
        "\\+ sub_atom(F, 0, _, _, Home) ), Fs0), sort(Fs0, Fs), "
        "atomic_list_concat(Fs, '\\n', Out)", what="listing the files Prolog loaded").splitlines()


@dataclass
class Checkpoint:
    """The slices a run has finished, kept in ``path`` (see the module).

    Open it with :meth:`open`; ``parts`` are the slices found there,
    ``states`` the states their proofs valued, with their values (Prolog
    text, see :class:`engine.verify.SharedStates`), ``seconds_before``
    the seconds the earlier runs took to finish them.
    """

    path: Path
    done: list[tuple[int, int]] = field(default_factory=list)
    parts: list[dict] = field(default_factory=list)
    states: list[str] = field(default_factory=list)
    seconds_before: float = 0.0
    run: int = 1

    @classmethod
    def open(cls, path: str | os.PathLike, expected: dict) -> "Checkpoint":
        """The checkpoint in ``path`` for the run named ``expected`` (see
        :func:`identity`): the slices it holds, or a new file with none.
        Raises :class:`BadInput` for a file that is not a checkpoint or is
        one of another run."""
        checkpoint = cls(Path(path))
        try:
            checkpoint._take(expected)
        except OSError as error:
            raise BadInput(f"{path}: {error.strerror or error}") from None
        return checkpoint

    def _take(self, expected: dict) -> None:
        """Take in the slices of the file, or start it for ``expected``."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._write({"checkpoint": MAGIC, "version": VERSION, "run": expected})
            return
        lines = self._read_lines()
        head = lines[0] if lines else None
        if not isinstance(head, dict) or head.get("checkpoint") != MAGIC:
            raise BadInput(f"{self.path}: not a checkpoint of advice verify (left as it is): "
                           "name another file")
        if head.get("version") != VERSION or not isinstance(head.get("run"), dict):
            raise BadInput(f"{self.path}: a checkpoint of another version of advice verify: "
                           "name another file, or delete this one to start again")
        differ = sorted(key for key in expected.keys() | head["run"].keys()
                        if expected.get(key) != head["run"].get(key))
        if differ:
            raise BadInput(f"{self.path}: the checkpoint of another run (not the same "
                           f"{', '.join(differ)}): name another file, or delete this one to "
                           "start again")
        runs: dict[int, float] = {}
        for number, line in enumerate(lines[1:], start=2):
            try:
                self._add(line, runs, expected["chosen"])
            except (KeyError, TypeError, ValueError):
                raise BadInput(f"{self.path}:{number}: not a slice of advice verify (the file "
                               "is damaged): delete it to start again") from None
        ordered = sorted(self.done)
        if any(stop > start for (_, stop), (start, _) in zip(ordered, ordered[1:])):
            raise BadInput(f"{self.path}: two slices hold the same positions (the file is "
                           "damaged): delete it to start again")
        self.seconds_before = sum(runs.values())
        self.run = max(runs, default=0) + 1

    def _add(self, line: dict, runs: dict[int, float], count: int) -> None:
        """Take in a slice read from the file; ``runs`` keeps the seconds
        each run had taken at its last slice. Raises ValueError for a
        slice outside the ``count`` start positions."""
        start, stop = bounds = (int(line["bounds"][0]), int(line["bounds"][1]))
        if not 0 <= start < stop <= count:
            raise ValueError(f"slice {bounds} out of place")
        part = line["part"]
        if "valued" in part:
            part["valued"] = np.array([int(key, 16) for key in part["valued"]], dtype=np.uint64)
        runs[line["run"]] = max(runs.get(line["run"], 0.0), float(line["seconds"]))
        self.done.append(bounds)
        self.parts.append(part)
        if line.get("states"):
            self.states.append(str(line["states"]))

    @property
    def positions_done(self) -> int:
        """How many start positions the slices found in the file hold."""
        return sum(stop - start for start, stop in self.done)

    def remaining(self, count: int, size: int) -> list[tuple[int, int]]:
        """The slices of at most ``size`` positions that cover the start
        positions ``0..count - 1`` no finished slice covers."""
        slices, start = [], 0
        for done_start, done_stop in sorted(self.done) + [(count, count)]:
            for a in range(start, done_start, size):
                slices.append((a, min(a + size, done_start)))
            start = max(start, done_stop)
        return slices

    def save(self, bounds: tuple[int, int], part: dict, states: str | None,
             seconds: float) -> None:
        """Add a finished slice (its ``bounds``, its result and the states
        it valued), ``seconds`` into this run, and make sure it is on disk.
        Raises :class:`EngineError` when the file cannot take it."""
        kept = dict(part)
        if "valued" in kept:
            kept["valued"] = [format(int(key), "016x") for key in kept["valued"]]
        try:
            self._write({"run": self.run, "bounds": list(bounds), "seconds": seconds,
                         "part": kept, "states": states})
        except OSError as error:
            raise EngineError(f"{self.path}: could not keep the start positions "
                              f"{bounds[0]}..{bounds[1] - 1} ({error.strerror or error}); "
                              "the slices before them are kept") from None

    def _write(self, line: dict) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def _read_lines(self) -> list:
        """The file's lines, read as JSON. A last line cut short (the run
        was killed while writing it) is dropped from the file; any other
        line that cannot be read makes the file no checkpoint."""
        raw = self.path.read_bytes()
        end = raw.rfind(b"\n") + 1
        if end < len(raw):  # a last line cut short
            if raw[:end].startswith(b'{"checkpoint":'):
                with self.path.open("r+b") as out:
                    out.truncate(end)
            raw = raw[:end]
        try:
            return [json.loads(line) for line in raw.decode("utf-8").splitlines()]
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BadInput(f"{self.path}: not a checkpoint of advice verify (left as it is): "
                           "name another file") from None
