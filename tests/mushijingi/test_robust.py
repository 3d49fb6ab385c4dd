"""Any structurally valid move, legal or not, naming what exists or not: ``apply``,
``check``, ``describe`` and ``name_errors`` answer without raising (base.Ruleset contract)."""

from __future__ import annotations

import random

from projections.mushijingi import RULESET as R
from projections.mushijingi.moves import name_errors

NAMES = ["A1", "B1", "A2", "B9", "カブトムシ", "タガメ", "大嵐", "羽化", "謎", "", "player", "A", "B", "Z"]
TECHS = ["つのでつく", "すくいなげ", "かみつく", "ひかる", "??"]


def random_move(rng: random.Random, board) -> dict:
    mtype = rng.choice(list(R.move_types))
    by = rng.choice(["A", "B", "A", "B", "Z"])
    name = lambda: rng.choice(NAMES)  # noqa: E731
    move: dict = {"seq": 1, "type": mtype, "by": by}
    if mtype == "setup" and rng.random() < 0.7:
        move["hand"] = [rng.choice([None, name()]) for _ in range(rng.randrange(7))]
    elif mtype == "draw":
        move["card"] = rng.choice([None, name()])
    elif mtype in ("set", "play"):
        move["card"] = name()
        if mtype == "play" and rng.random() < 0.5:
            move["target"] = name()
    elif mtype == "attack":
        move.update(attacker=name(), technique=rng.choice(TECHS), target=name())
        if rng.random() < 0.3:
            move["territory_card"] = rng.choice([None, name()])
    elif mtype == "effect":
        move["card"] = name()
        for key in ("damage", "boost"):
            if rng.random() < 0.4:
                move[key] = {name(): rng.randrange(0, 2000) for _ in range(rng.randrange(3))}
        for key in ("destroy", "bounce", "flip", "discard", "feed_discard", "summon"):
            if rng.random() < 0.3:
                move[key] = [name() for _ in range(rng.randrange(3))]
        for key in ("draw", "territory"):
            if rng.random() < 0.3:
                move[key] = rng.randrange(0, 30)
        if rng.random() < 0.3:
            move["from"] = rng.choice(["hand", "discard", "deck"])
        if rng.random() < 0.3:
            move["player"] = rng.choice(["A", "B", "Z"])
        if rng.random() < 0.3:
            move["technique"] = rng.choice(TECHS)
    elif mtype == "reveal":
        move["cards"] = [name() for _ in range(rng.randrange(6))]
    return move


def test_random_moves_never_raise():
    rng = random.Random(2026)
    for seed in range(5):
        header, moves = R.generate(random.Random(seed), f"r{seed}")
        board = R.initial_board(header)
        boards = [board]
        for move in moves:
            board = R.apply(board, move)
            boards.append(board)
        for board in rng.sample(boards, 20):
            for _ in range(15):
                move = random_move(rng, board)
                assert R.validate_move(move) == [], move
                R.check(board, move)
                name_errors(board, move)
                for lang in ("ja", "en"):
                    assert R.describe(board, move, lang)
                after = R.apply(board, move)
                R.board_json(after)
                R.render_text(after)
