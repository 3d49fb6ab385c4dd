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

# One look at the page per tap (a round trip is what a tap costs the driver): the control of
# field ``name`` whose value is ``value`` (its nearest [data-field] ancestor names it), or the
# ``index``-th match of a CSS selector. What it says of the control: pressed (aria-pressed /
# -checked / -selected), a native <option>, hidden in a closed <details> (then the summary to
# tap first is the one located), out of view (then scrolled into view, and counted), and where to
# touch it: its middle, checked to be the control itself and not what sticks over it (the board
# above, the record bar below). It first waits for the click of the previous tap to have run
# (``window.__tapped``), and arms the next. A record button resting after a record
# (aria-disabled) is waited for: a person waits for it too.
LOOK = """async ([how, a, b, append]) => {
  if (window.__tapped) { const ok = await window.__tapped; window.__tapped = null; if (!ok) return {lost: true}; }
  const field = x => { const f = x.closest('[data-field]'); return f ? f.getAttribute('data-field') : null; };
  const hitOf = x => { const r = x.getBoundingClientRect();
    if (!(r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth)) return null;
    const px = r.left + r.width / 2, py = r.top + r.height / 2, top = document.elementFromPoint(px, py);
    return top && (top === x || x.contains(top)) ? [px, py] : null; };
  let e = null;
  if (how === 'field') {  /* the board's piece or the form's button: the first in view, else the first */
    const all = [...document.querySelectorAll('[data-value]')].filter(x => field(x) === a && x.getAttribute('data-value') === b);
    e = all.find(x => !x.closest('details:not([open])') && hitOf(x)) || all[0] || null;
  }
  else if (how === 'input') e = [...document.querySelectorAll('[data-field] input[type=text]')].find(x => field(x) === a) || null;
  else e = document.querySelectorAll(a)[b] || null;
  if (!e) return null;
  const out = {pressed: ['aria-pressed', 'aria-checked', 'aria-selected'].some(k => e.getAttribute(k) === 'true'),
               option: e.tagName === 'OPTION', reveal: false, scrolled: false};
  if (out.option) return out;
  const d = e.closest('details:not([open])');
  if (d && !(e.tagName === 'SUMMARY' && e.parentElement === d)) { e = d.querySelector('summary'); out.reveal = true; }
  if (out.pressed && !append && !out.reveal) return out;
  for (let i = 0; i < 100 && e.getAttribute('aria-disabled') === 'true'; i++) await new Promise(r => setTimeout(r, 20));
  const hit = () => hitOf(e);
  let at = hit();
  if (!at) { out.scrolled = true; e.scrollIntoView({block: 'center'}); at = hit(); }
  out.at = at;
  out.records = e.getAttribute('data-action') === 'record';  /* this tap records the move at once */
  out.trace = (out.scrolled ? 'scroll+' : '') + (e.closest('[data-board]') ? 'board:' : '') + (field(e) ? field(e) + '=' : '') +
              (e.getAttribute('data-value') || e.getAttribute('data-action') || e.tagName);
  window.__tapped = new Promise(r => { const t = setTimeout(() => r(false), 10000);
    window.addEventListener('click', () => setTimeout(() => { clearTimeout(t); r(true); }, 0), {once: true}); });
  return out;
}"""

# The line's suggestions (data-move) and whether the line's type is pre-selected, in one look.
OFFERED = """type => {
  const f = [...document.querySelectorAll('[data-value]')].find(x => {
    const r = x.closest('[data-field]'); return r && r.getAttribute('data-field') === 'type' && x.getAttribute('data-value') === type; });
  return {moves: [...document.querySelectorAll('[data-move]')].map(b => b.getAttribute('data-move')),
          pre: !!f && f.getAttribute('aria-pressed') === 'true'};
}"""
# At the tap of 記録する: the board's height in view, and a clock from this tap to the line
# acknowledged (#rec-steps changing when the server answered the POST), performance.now().
RECORD = """() => {
  window.__ack = null; window.__tap = null;
  const steps = document.getElementById('rec-steps');
  for (const rec of document.querySelectorAll('[data-action="record"]')) {  /* 記録する, or a control that records at once */
    rec.addEventListener('pointerdown', () => { window.__tap = performance.now(); }, {once: true, capture: true});
    rec.addEventListener('touchstart', () => { if (window.__tap === null) window.__tap = performance.now(); }, {once: true, capture: true});
  }
  const before = steps.textContent;
  const seen = new MutationObserver(() => {
    if (steps.textContent !== before && window.__ack === null) { window.__ack = performance.now(); seen.disconnect(); }
  });
  seen.observe(steps, {childList: true, characterData: true, subtree: true});
  const b = document.querySelector('[data-board]'); if (!b) return 0;
  const r = b.getBoundingClientRect();
  return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
}"""
ACK_MS = "() => (window.__ack === null || window.__tap === null) ? null : window.__ack - window.__tap"
# The line landed: the count of lines is its seq, nothing waits in the queue, the last line
# drawn is it.
LANDED = """seq => document.getElementById('rec-steps').textContent === seq
  && !document.querySelector('#rec-queue:not([hidden])')
  && (() => { const l = [...document.querySelectorAll('#rec-last li')].pop(); return !!l && l.getAttribute('data-seq') === seq; })()"""


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


def fits(part: Any, whole: Any) -> bool:
    """``part`` says nothing ``whole`` does not: equal, or a dict whose every key fits (its words
    apart: they are typed), or a list of as many items, each fitting (a suggestion that leaves
    parts of a move to fill)."""
    if isinstance(part, dict) and isinstance(whole, dict):  # words are typed over whatever a suggestion says
        return all(k in whole and (k in WORDS or fits(v, whole[k])) for k, v in part.items())
    if isinstance(part, list) and isinstance(whole, list):
        return len(part) == len(whole) and all(fits(p, w) for p, w in zip(part, whole))
    return bool(part == whole)


def size(x: Any) -> int:
    """How much of a move ``x`` fills: its leaves."""
    if isinstance(x, dict):
        return sum(size(v) for v in x.values())
    if isinstance(x, list):
        return sum(size(v) for v in x) or 1
    return 1


class Thumb:
    def __init__(self, page: Any):
        self.page = page
        self.now = Entered()
        self.recorded = False  # the line's last control recorded it at once (data-action="record")

    # -- one tap -----------------------------------------------------------------------------
    def _touch(self, how: str, a: str, b: Any, append: bool = False) -> bool:
        """Tap the control ``LOOK`` finds (revealing it first if it is folded away), unless it is
        already pressed and not a list's (``append``). False: no such control."""
        for _ in range(4):
            st = self.page.evaluate(LOOK, [how, a, b, append])
            if st is None:
                return False
            if st.get("lost"):
                raise AssertionError(f"the page never saw the tap before {a}={b}")
            if st["option"]:
                self._choose(how, a, b)
                return True
            if st["pressed"] and not append and not st["reveal"]:
                return True
            if st["scrolled"]:
                self.now.scrolls += 1
            if st.get("records") and not st["reveal"] and how != "css":  # this tap records the line: 記録する's look first
                self.now.board_px = float(self.page.evaluate(RECORD))
                self.recorded = True
            self.now.trace.append(st["trace"])
            if st["at"] is None:  # covered even in the middle of the screen: let playwright find a way
                self._handle(how, a, b).tap()
            else:
                self.page.touchscreen.tap(*st["at"])
            self.now.taps += 1
            if not st["reveal"]:
                return True
        raise AssertionError(f"{a}={b}: still folded away")

    def _handle(self, how: str, a: str, b: Any) -> Any:
        if how == "css":
            return self.page.locator(a).nth(b).element_handle()
        return self.page.evaluate_handle(
            """([name, value]) => [...document.querySelectorAll('[data-value]')].find(e => {
                 const f = e.closest('[data-field]'); return f && f.getAttribute('data-field') === name
                 && e.getAttribute('data-value') === value; }) || null""", [a, b]).as_element()

    def _choose(self, how: str, name: str, value: Any) -> None:
        """A pick from a native select: 2 (open, pick), after its reveal."""
        option = self._handle(how, name, value)
        select = option.evaluate_handle("e => e.closest('select')").as_element()
        if select.evaluate("e => !!e.closest('details:not([open])')"):
            self._touch("css", "details:not([open]) > summary", 0)
        if not select.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"):
            self.now.scrolls += 1
        self.page.evaluate("() => { window.__tapped = null; }")
        select.select_option(value=dv(value))
        self.now.trace.append(f"{name}={dv(value)} (select)")
        self.now.taps += 2

    def _pick(self, name: str, value: Any) -> bool:
        """Set ``name`` to ``value`` with its control, if it has one (skipped when already so)."""
        return self._touch("field", name, dv(value))

    def _append(self, name: str, value: Any) -> bool:
        return self._touch("field", name, dv(value), append=True)

    def _type(self, name: str, value: Any) -> bool:
        if not self._touch("input", name, None, append=True):
            return False
        self.page.evaluate("""async () => { await window.__tapped; window.__tapped = null;
                                            const e = document.activeElement; if (e && e.select) e.select(); }""")
        self.page.keyboard.insert_text(dv(value))  # over what the input held
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

    def enter(self, line: dict[str, Any]) -> Entered:
        """Build ``line`` (without seq) on the page and tap 記録する (not waiting for the server)."""
        self.now = Entered()
        self.recorded = False
        target = {k: v for k, v in line.items() if k != "seq"}
        seen = self.page.evaluate(OFFERED, dv(target["type"]))
        offered = [json.loads(x) for x in seen["moves"]]
        pre = bool(seen["pre"])
        self.now.predicted = bool(offered and offered[0] == target) or pre
        # a suggestion that is the line, or the most of it (every field it fills the line's)
        best, best_n = -1, 0
        for i, m in enumerate(offered):
            if fits(m, target) and size(m) > best_n:
                best, best_n = i, size(m)
        given: dict[str, Any] = {}
        if best >= 0 and (offered[best] == target or best_n > 2 or not pre):
            self._touch("css", "[data-move]", best)
            given = offered[best]
        else:
            self._set("type", target["type"])
        if "by" in target and "by" not in given:
            self._set("by", target["by"])
        for k, v in target.items():
            if k not in ("type", "by") and (k not in given or given[k] != v):
                self._set(k, v)
        self.page.evaluate("() => window.__tapped")  # the last control's tap has run
        if not self.recorded:
            self.now.board_px = float(self.page.evaluate(RECORD))
            self._touch("css", '[data-action="record"]:not([data-value]):not([data-move])', 0, append=True)
        return self.now

    def landed(self, seq: int) -> None:
        """Wait until the line ``seq`` is recorded and drawn (one wait per line)."""
        try:
            self.page.wait_for_function(LANDED, arg=str(seq), timeout=WAIT)
        except Exception as exc:  # say what the page shows instead
            shown = self.page.evaluate("""() => ['rec-steps', 'rec-result', 'rec-queue']
                .map(id => id + ': ' + document.getElementById(id).textContent).join(' | ')""")
            raise AssertionError(f"line {seq} not landed: {shown}; taps {self.now.trace}") from exc
