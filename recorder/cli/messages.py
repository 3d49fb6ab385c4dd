"""Templates of the messages the recorder's inner modules raise or print in English (the store,
the service, the judges' workflow, tokens, bulk import, migration, the game registry), kept
here for the catalog: ``recorder.cli.common.tr`` says a message in the reader's language when
it matches one of them (exports.i18n.translate). Never imported at run time;
tests/core/test_cli_lang.py checks that each template's fixed words are still in the module
named beside it (a key names one or more files, by glob), so a reworded message shows up as a
failing test, not as English in Japanese."""

from __future__ import annotations

from recorder.cli.common import N_

TEMPLATES: dict[str, tuple[str, ...]] = {
    "recorder/store.py": (
        N_("bad database URL {db!r}: expected postgresql://user:pass@host:port/dbname"),
        N_("bad database URL {db!r}: port is not a number"),
        N_("unsupported database {db!r}: give a file path or a postgresql:// URL"),
        N_("{db}: directory {parent} does not exist"),
        N_("cannot open database {db}: {error}"),
        N_("match {match!r} is already recorded"),
        N_("database busy, nothing imported: {error}"),
        N_("no match {match!r} in {db}"),
        N_("match {match!r}: database busy, nothing recorded: {error}"),
    ),
    "recorder/service.py": (
        N_("--as-of: {value!r} is not an ISO 8601 timestamp"),
        N_("{violations} (not recorded: --strict)"),
    ),
    "recorder/workflow.py": (
        N_("seq {on} is a {type}, not a move"),
        N_("seq {on} is a {type}, not an annotation"),
        N_("annotation {on} is already retracted"),
        N_("seq {seq} is a {type}, not a dispute"),
        N_("dispute {seq} has a head judge's ruling (seq {ruling}), which is final"),
        N_("dispute {seq} is already ruled (seq {ruling}); appeal that ruling to the head judge first"),
        N_("dispute {seq} is under appeal: only the head judge (level head) rules now"),
        N_("seq {seq} is a {type}, not a ruling"),
        N_("ruling {seq} is the head judge's, which is final and cannot be appealed"),
        N_("dispute {seq} is already decided by the head judge"),
        N_("ruling {seq} is already appealed"),
        N_("only an overturned ruling replaces or rewinds moves"),
    ),
    "projections/package.py": (
        N_("unknown house rule (known: {known})"),
    ),
    "recorder/tokens.py": (
        N_("--role: must be one of {roles}, not {role!r}"),
        N_("--match: a scorekeeper's token needs --match ID, or --event E with --table N"),
        N_("--match: give either --match or --event/--table, not both"),
        N_("--event: a judge's token is for one whole event: give --event E only"),
        N_("--role: an admin token writes everywhere: give no --match, --event or --table"),
        N_("--name: {name!r}: 1 to 64 characters, no spaces or slashes"),
        N_("--name: a token named {name!r} already exists"),
        N_("no token named {name!r} (kifu token list shows them)"),
    ),
    "recorder/bulk.py": (
        N_("no match logs ({pattern}) in {paths}"),
        N_("skipped: {line}"),
        N_("skipped {n} more already-recorded match(es)"),
        N_("imported {n}, skipped {duplicates} duplicate(s), failed {failed}"),
        N_("interrupted: {summary}, not tried {n}"),
        N_("read model not brought up to date: {what}"),
        N_("read model not brought up to date (interrupted): it catches up at the next write"),
    ),
    "projections/readmodel.py": (
        N_("read model {path} was built from store {known} ({source}), not store {sid} ({current}): "
           "run kifu stats --rebuild or give --readmodel"),
        N_("read model {path} was built from {source}, not {current}: run kifu stats --rebuild or give --readmodel"),
    ),
    "recorder/migrate.py": (
        N_("conflict: match {match!r} differs between source and target at {what}; left untouched in the target"),
        N_("copied {n} match(es), {events} events; {already} already present and verified; "
           "{conflicts} conflict(s); {failed} failed; {skipped} skipped"),
    ),
    "projections/replay.py": (
        N_("move recorded after the match was decided"),
        N_("move could not be applied: {error}"),
    ),
    # unknown_name(..., what) with each ``what`` the rulesets pass
    "projections/names.py projections/*/moves.py": (
        N_("{value} is not a die of this match{hint}"),
        N_("{value} is not a player of this match{hint}"),
        N_("{value} is not a card of this match{hint}"),
        N_("{value} is not a technique of this match{hint}"),
        N_("{value} is not a 小札絵 of this match{hint}"),
        N_("{value} is not a die or 小札絵 of this match{hint}"),
        N_("; did you mean {names}?"),
    ),
    "projections/registry.py": (
        N_("unknown game {name!r} (known: {known})"),
        N_("game {game!r} is not available in this build"),
        N_("bad rules version {version!r} (expected e.g. gandice/1)"),
        N_("no ruleset {game}/{version} (known: {known})"),
    ),
}
