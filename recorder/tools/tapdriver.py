"""A scorekeeper's thumb on the recording page (the tests' and the bench's), driven only through the page's public contract
(docs/recording-page.md): ``data-field`` / ``data-value`` on the controls, ``data-move`` on the
suggestions, ``data-action="record"``, ``data-board``. It re-enters a line by the shortest path
it can see, counting what a person would do: a tap is 1, a pick from a native select 2, a
reveal (a closed <details>'s summary) 1, and a scroll whenever the control is out of view.
Typing is allowed for words only (a note's or an effect's ``text``); anything else typed is
reported in ``typed``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

WAIT = 10_000  # ms; an upper bound for the page to react, not a speed requirement
WORDS = ("text",)  # the fields a person types: words

# The control of ``name`` whose value is ``value``: the nearest [data-field] ancestor names it.
FIND = """([name, value]) => {
  const all = [...document.querySelectorAll('[data-value]')];
  return all.find(e => {
    const f = e.closest('[data-field]');
    return f && f.getAttribute('data-field') === name && e.getAttribute('data-value') === value;
  }) || null;
}"""
STATE = """e => ({pressed: e.getAttribute('aria-pressed') === 'true' || e.getAttribute('aria-checked') === 'true'
                    || e.getAttribute('aria-selected') === 'true',
           option: e.tagName === 'OPTION',
           closed: (() => { const d = e.closest('details:not([open])');
                            return !!d && !(e.tagName === 'SUMMARY' && e.parentElement === d); })(),
           inview: (() => { const r = e.getBoundingClientRect();
                            if (!(r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight)) return false;
                            /* not hidden under what sticks (the board above, the record bar below) */
                            const x = r.left + r.width / 2, y = r.top + r.height / 2;
                            const top = document.elementFromPoint(x, y);
                            return !!top && (top === e || e.contains(top) || top.contains(e)); })()})"""
BOARD = """() => { const b = document.querySelector('[data-board]'); if (!b) return 0;
  const r = b.getBoundingClientRect();
  return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0)); }"""


# Times the record tap (its pointerdown) and the line's acknowledgement: the count of lines
# (#rec-steps) changing when the server answered the POST. performance.now() in the page.
ACK = """() => {
  window.__ack = null; window.__tap = null;
  const rec = document.querySelector('[data-action="record"]'), steps = document.getElementById('rec-steps');
  rec.addEventListener('pointerdown', () => { window.__tap = performance.now(); }, {once: true, capture: true});
  const before = steps.textContent;
  const seen = new MutationObserver(() => {
    if (steps.textContent !== before && window.__ack === null) { window.__ack = performance.now(); seen.disconnect(); }
  });
  seen.observe(steps, {childList: true, characterData: true, subtree: true});
}"""
ACK_MS = "() => (window.__ack === null || window.__tap === null) ? null : window.__ack - window.__tap"


def dv(x: Any) -> str:
    return x if isinstance(x, str) else json.dumps(x, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Entered:
    """What one line cost."""

    taps: int = 0
    scrolls: int = 0
    board_px: float = 0.0
    predicted: bool = False  # the first suggestion was the line, or the pre-selected type was right
    typed: list[str] = field(default_factory=list)  # fields typed (words, or a fallback)
    missing: list[str] = field(default_factory=list)  # fields no control could set
    trace: list[str] = field(default_factory=list)  # what was tapped, in order


class Thumb:
    def __init__(self, page: Any):
        self.page = page
        self.now = Entered()

    # -- one tap -----------------------------------------------------------------------------
    def _tap(self, handle: Any, refind: Any = None) -> None:
        """Tap ``handle``; when the page drew that part anew meanwhile (a state that arrived from
        the stream), find the control again with ``refind``."""
        for _ in range(5):
            try:
                return self._tap_once(handle)
            except Exception as exc:  # playwright's Error: "not attached to the DOM"
                if refind is None or "not attached" not in str(exc):
                    raise
                handle = refind()
        return self._tap_once(handle)

    def _tap_once(self, handle: Any) -> None:
        st = handle.evaluate(STATE)
        if st["closed"]:
            summary = handle.evaluate_handle("e => e.closest('details:not([open])').querySelector('summary')")
            self._tap(summary)
            st = handle.evaluate(STATE)
        if not st["inview"]:
            self.now.scrolls += 1
        self.now.trace.append(("scroll+" if not st["inview"] else "") + str(handle.evaluate(
            "e => (e.closest('[data-field]') ? e.closest('[data-field]').getAttribute('data-field') + '=' : '')"
            " + (e.getAttribute('data-value') || e.getAttribute('data-action') || e.tagName)")))
        handle.tap()
        self.now.taps += 1

    def _choose(self, option: Any, value: Any) -> None:
        """A pick from a native select: 2 (open, pick), after its reveal."""
        select = option.evaluate_handle("e => e.closest('select')").as_element()
        st = select.evaluate(STATE)
        if st["closed"]:
            self._tap(select.evaluate_handle("e => e.closest('details:not([open])').querySelector('summary')"))
            st = select.evaluate(STATE)
        if not st["inview"]:
            self.now.scrolls += 1
        select.select_option(value=dv(value))
        self.now.taps += 2

    def _control(self, name: str, value: Any) -> Any:
        h = self.page.evaluate_handle(FIND, [name, dv(value)])
        return h.as_element()

    def _pick(self, name: str, value: Any) -> bool:
        """Set ``name`` to ``value`` with its control, if it has one (skipped when already so)."""
        el = self._control(name, value)
        if el is None:
            return False
        st = el.evaluate(STATE)
        if st["option"]:
            self._choose(el, value)
            return True
        if not st["pressed"]:
            self._tap(el, lambda: self._control(name, value))
        return True

    def _append(self, name: str, value: Any) -> bool:
        el = self._control(name, value)
        if el is None:
            return False
        if el.evaluate(STATE)["option"]:
            self._choose(el, value)
        else:
            self._tap(el, lambda: self._control(name, value))
        return True

    def _type(self, name: str, value: Any) -> bool:
        inp = self.page.evaluate_handle(
            """name => [...document.querySelectorAll('[data-field] input[type=text]')]
                 .find(e => e.closest('[data-field]').getAttribute('data-field') === name) || null""", name).as_element()
        if inp is None:
            return False
        self._tap(inp)
        inp.fill(dv(value))
        self.now.typed.append(name)
        return True

    # -- a field, by the contract's names --------------------------------------------------------
    def _set(self, name: str, value: Any) -> None:
        if self._pick(name, value):
            return
        if isinstance(value, dict):
            for k, v in value.items():
                self._set(f"{name}.{k}", v)
            return
        if isinstance(value, list):
            if not value:
                if not self._pick(name, []):
                    self.now.missing.append(name)
                return
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    for k, v in item.items():
                        self._set(f"{name}.{i}.{k}", v)
                elif not self._append(name, item):
                    self.now.missing.append(f"{name}.{i}")
            return
        if not self._type(name, value):
            self.now.missing.append(name)

    # -- a line --------------------------------------------------------------------------------
    def ack_ms(self) -> float | None:
        """Milliseconds from the last record tap to its line acknowledged (None: not yet)."""
        value = self.page.evaluate(ACK_MS)
        return None if value is None else float(value)

    def suggestions(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.page.locator("[data-move]").evaluate_all(
            "bs => bs.map(b => b.getAttribute('data-move'))")]

    def enter(self, line: dict[str, Any]) -> Entered:
        """Build ``line`` (without seq) on the page and tap 記録する (not waiting for the server)."""
        self.now = Entered()
        target = {k: v for k, v in line.items() if k != "seq"}
        offered = self.suggestions()
        chosen = self._control("type", target["type"])
        pre = chosen is not None and chosen.evaluate(STATE)["pressed"]
        self.now.predicted = bool(offered and offered[0] == target) or pre
        # a suggestion that is the line, or the most of it (its every field the line's)
        best, best_n = -1, 0
        for i, m in enumerate(offered):
            if all(target.get(k) == v for k, v in m.items()) and len(m) > best_n:
                best, best_n = i, len(m)
        given: dict[str, Any] = {}
        if best >= 0 and (best_n == len(target) or best_n > 2 or not pre):
            nth = self.page.locator("[data-move]").nth(best)
            self._tap(nth.element_handle(), nth.element_handle)
            given = offered[best]
        else:
            self._set("type", target["type"])
        if "by" in target and "by" not in given:
            self._set("by", target["by"])
        for k, v in target.items():
            if k not in ("type", "by") and k not in given:
                self._set(k, v)
        record = self.page.locator('[data-action="record"]')
        self.page.evaluate(ACK)  # the time from this tap to the line acknowledged (#rec-steps)
        self._tap(record.element_handle(), record.element_handle)
        self.now.board_px = float(self.page.evaluate(BOARD))
        return self.now
