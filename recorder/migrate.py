"""Copy every match from one store to another (SQLite → PostgreSQL when a venue moves up).

Event for event: the same header, the same lines with the same seq, the same recorded times.
Each match is copied in one transaction and verified by comparing its export and times;
a match already in the target is verified and skipped, so running it twice copies nothing twice.

A match the target already holds in a *different* form is a conflict: it is reported with
the first seq where the two differ and left untouched in the target, and the run goes on
with the other matches (a rerun stops at nothing). ``only`` / ``skip`` name matches.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from rich.progress import Progress

from projections.errors import DuplicateMatchError, KifuError
from recorder.logformat import clip, export_lines
from recorder.store import Store


class MigrationError(KifuError):
    """A match in the target differs from the source."""


@dataclass(frozen=True)
class Conflict:
    match: str
    seq: int  # the first seq where source and target differ; 0 is the header
    what: str  # "the header", "seq 7", "the recorded time of seq 7", "seq 12 (only in the source)"

    def __str__(self) -> str:
        return (f"conflict: match {self.match!r} differs between source and target at {self.what}; "
                f"left untouched in the target")


@dataclass
class MigrationReport:
    copied: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # one line per match that could not be read or written
    skipped: list[str] = field(default_factory=list)  # left out by --only / --skip
    events: int = 0
    tournaments: list[str] = field(default_factory=list)  # event streams copied (recorder/tournament_service.py)

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.failed

    def summary(self) -> str:
        return (f"copied {len(self.copied)} match(es), {self.events} events, {len(self.tournaments)} tournament(s); "
                f"{len(self.already)} already present and verified; "
                f"{len(self.conflicts)} conflict(s); {len(self.failed)} failed; {len(self.skipped)} skipped")


def _fingerprint(store: Store, match_id: str) -> tuple[list[str], list[str]]:
    header, timed = store.load_timed(match_id)
    lines = list(export_lines(header, [e for e, _ in timed]))
    times = [t.isoformat() for _, t in timed]
    return lines, times


def first_difference(source: tuple[list[str], list[str]], target: tuple[list[str], list[str]]) -> Conflict | None:
    """Where two fingerprints part (index 0 of lines is the header, index i is seq i)."""
    (src_lines, src_times), (dst_lines, dst_times) = source, target
    for i, (a, b) in enumerate(zip(src_lines, dst_lines)):
        if a != b:
            return Conflict("", i, "the header" if i == 0 else f"seq {i}")
        if i and src_times[i - 1] != dst_times[i - 1]:
            return Conflict("", i, f"the recorded time of seq {i}")
    if len(src_lines) != len(dst_lines):
        n = min(len(src_lines), len(dst_lines))
        side = "source" if len(src_lines) > len(dst_lines) else "target"
        return Conflict("", n, f"seq {n} (only in the {side})")
    return None


def migrate(
    source: Store,
    target: Store,
    show_progress: bool = True,
    only: Collection[str] = (),
    skip: Collection[str] = (),
) -> MigrationReport:
    report = MigrationReport()
    ids = [h["match"]["id"] for h in source.headers()]
    for missing in sorted(set(only) - set(ids)):
        report.failed.append(clip(f"--only: no match {missing!r} in the source", 500))
    with Progress(transient=True, disable=not show_progress or len(ids) < 2) as progress:
        task = progress.add_task("migrating", total=len(ids))
        for mid in ids:
            if (only and mid not in only) or mid in skip:
                report.skipped.append(mid)
            else:
                _one(source, target, mid, report)
            progress.advance(task)
    if not only:  # the tournaments' own streams go with their matches
        from recorder import tournament_service

        for name in tournament_service.names(source):
            try:
                if tournament_service.copy(source, target, name):
                    report.tournaments.append(name)
            except KifuError as exc:
                report.failed.append(clip(f"event {name!r}: {exc}"))
    return report


def _one(source: Store, target: Store, mid: str, report: MigrationReport) -> None:
    try:
        created, copied = False, 0
        if not target.exists(mid):
            header, timed = source.load_timed(mid)
            try:
                target.create(header, [e for e, _ in timed], [t for _, t in timed])
                created, copied = True, len(timed)
            except DuplicateMatchError:
                pass  # another process copied it a moment ago: verified below like any other
        differ = first_difference(_fingerprint(source, mid), _fingerprint(target, mid))
    except KifuError as exc:
        report.failed.append(clip(f"match {mid!r}: {exc}"))
        return
    if differ is not None:
        report.conflicts.append(Conflict(mid, differ.seq, differ.what))
    elif created:
        report.copied.append(mid)
        report.events += copied
    else:
        report.already.append(mid)


__all__ = ["Conflict", "MigrationError", "MigrationReport", "first_difference", "migrate"]
