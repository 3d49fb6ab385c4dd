"""Copy every match from one store to another (SQLite → PostgreSQL when a venue moves up).

Event for event: the same header, the same lines with the same seq, the same recorded times.
Each match is copied in one transaction and verified by comparing its export and times;
a match already in the target is verified and skipped, so running it twice copies nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.progress import Progress

from projections.errors import KifuError
from recorder.logformat import export_lines
from recorder.store import Store


class MigrationError(KifuError):
    """A match in the target differs from the source."""


@dataclass
class MigrationReport:
    copied: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    events: int = 0


def _fingerprint(store: Store, match_id: str) -> tuple[list[str], list[str]]:
    header, timed = store.load_timed(match_id)
    lines = list(export_lines(header, [e for e, _ in timed]))
    times = [t.isoformat() for _, t in timed]
    return lines, times


def migrate(source: Store, target: Store, show_progress: bool = True) -> MigrationReport:
    report = MigrationReport()
    headers = list(source.headers())
    with Progress(transient=True, disable=not show_progress or len(headers) < 2) as progress:
        task = progress.add_task("migrating", total=len(headers))
        for header in headers:
            mid = header["match"]["id"]
            if not target.exists(mid):
                src_header, timed = source.load_timed(mid)
                target.create(src_header, [e for e, _ in timed], [t for _, t in timed])
                report.copied.append(mid)
                report.events += len(timed)
            else:
                report.already.append(mid)
            if _fingerprint(source, mid) != _fingerprint(target, mid):
                raise MigrationError(f"match {mid!r} differs between source and target after copying")
            progress.advance(task)
    return report
