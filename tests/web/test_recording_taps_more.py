"""The other two examples re-entered by taps (tests/web/test_recording_taps.py says how): a file
of their own so that `make test` (--dist loadfile) runs them beside the first two."""

from __future__ import annotations

import pytest

from tests.web.test_recording_taps import check_game, server  # noqa: F401  (the module's server fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ("gurren-lagann", "mushijingi"))
def test_every_line_of_the_example_by_taps(browser, server, game):  # noqa: F811
    check_game(browser, server, game)
