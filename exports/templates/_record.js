/* The guided recording page (exports/recording.py builds the state it reads).
   Every line goes through one queue kept in localStorage: each queued line carries the seq it
   expects (?expect=) and an idempotency key, and is sent in order; a network failure keeps it
   queued and retries, a conflict (409) stops the queue and shows both versions. */
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("rec-data").textContent);
  var t = cfg.t;
  var $ = function (id) { return document.getElementById(id); };
  var QKEY = "kifu-queue:" + cfg.match;
  var S = null;            // the last state from the server
  var known = 0;           // lines the server has (as far as this page knows)
  var cur = null;          // the move being built: {type, by, f: {field: value}}
  var dirty = false;       // the user touched the form since it was reset
  var sending = false, stopped = false, retry = null, okSeq = null;

  // -- token: #token=... in the URL is kept for this tab (sessionStorage), on this device
  //    (localStorage) only when "remember on this device" is ticked; removed from the address --
  function keepToken(value) {
    try {
      sessionStorage.setItem("kifu-token", value);
      if ($("rec-remember").checked) localStorage.setItem("kifu-token", value);
      else localStorage.removeItem("kifu-token");
    } catch (e) {}
  }
  try { $("rec-remember").checked = !!localStorage.getItem("kifu-token"); } catch (e) {}
  $("rec-remember").onchange = function () { keepToken(token()); };
  $("rec-form").addEventListener("submit", function (e) { e.preventDefault(); });
  function tokenFromAddress() {
    var m = /[#&]token=([^&]+)/.exec(location.hash || "");
    if (m) {
      keepToken(decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
      $("rec-token").value = token();
    }
  }
  function token() {
    try { return sessionStorage.getItem("kifu-token") || localStorage.getItem("kifu-token") || ""; } catch (e) { return ""; }
  }
  tokenFromAddress();
  window.addEventListener("hashchange", tokenFromAddress);
  $("rec-token").value = token();
  $("rec-token-save").onclick = function () {
    keepToken($("rec-token").value.trim());
    if (!$("rec-conflict").hidden) return;  // a conflict is resolved with its own buttons
    stopped = false;
    flush();
  };

  function el(tag, attrs, text) {
    var n = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "cls") n.className = attrs[k]; else n.setAttribute(k, attrs[k]);
    });
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function btn(label, onclick, cls, attrs) {
    var b = el("button", Object.assign({type: "button"}, attrs || {}), label);
    if (cls) b.className = cls;
    b.onclick = onclick;
    return b;
  }
  /* The answer to a move is a note above the record bar (fixed: it moves nothing); "recorded"
     goes after a few seconds, a refusal or a flag stays until the next line. */
  var sayTimer = null;
  /* the answer shows two short lines in the board's title row; a tap shows all of it, another folds it */
  document.querySelector(".rec-notes").addEventListener("click", function () { this.classList.toggle("open"); });
  function say(cls, lines) {
    var out = $("rec-result");
    out.className = "rec-msg " + cls; out.textContent = "";
    out.parentElement.classList.remove("open");
    lines.forEach(function (l) { out.appendChild(el("div", {}, l)); });
    clearTimeout(sayTimer);
    if (cls === "ok") sayTimer = setTimeout(function () { out.textContent = ""; out.className = "rec-msg"; }, 4000);
  }
  /* Room kept: what the answer to a move redraws (the board, the suggestions, the form, the last
     lines) keeps at least the height it had, so nothing below it moves while the scorekeeper
     looks (layout shift 0); the room is given back at the next tap in the form, a change that
     tap asks for. */
  var KEPT = ["rec-board", "rec-legal", "rec-form", "rec-last"];
  function reserve() {
    KEPT.forEach(function (id) {
      var e = $(id);
      if (e) e.style.minHeight = Math.max(e.offsetHeight, parseFloat(e.style.minHeight) || 0) + "px";
    });
  }
  function release() { KEPT.forEach(function (id) { var e = $(id); if (e) e.style.minHeight = ""; }); }
  function clone(o) { return JSON.parse(JSON.stringify(o)); }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // -- the queue --------------------------------------------------------------------------
  function queue() { try { return JSON.parse(localStorage.getItem(QKEY) || "[]"); } catch (e) { return []; } }
  function saveQueue(q) { try { localStorage.setItem(QKEY, JSON.stringify(q)); } catch (e) {} showQueue(); }
  function newKey() {
    var a = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return "rec-" + Array.prototype.map.call(a, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }
  function enqueue(line) {
    var q = queue();
    var base = q.length ? q[q.length - 1].expect : known;
    q.push({line: line, key: newKey(), expect: base + 1});
    saveQueue(q);
    flush();
  }
  function showQueue() {
    var q = queue(), box = $("rec-queue");
    box.hidden = !q.length;
    box.textContent = "";
    if (!q.length) return;
    box.appendChild(el("div", {}, t.queue + ": " + q.length));
    var ol = el("ol");
    q.forEach(function (item) { ol.appendChild(el("li", {}, lineText(item.line))); });
    box.appendChild(ol);
  }
  // A line not yet sent, in the page's words: the player's name, the move type's label, then each
  // field as its label and value (the notation comes from the server, which is out of reach).
  function words(v) {
    if (v === null || v === undefined) return "—";
    if (Array.isArray(v)) return v.map(words).join("、");
    if (typeof v === "object") return Object.keys(v).map(function (k) { return k + " " + words(v[k]); }).join("、");
    return String(v);
  }
  function lineText(line) {
    var f = S && S.forms[line.type], labels = {};
    ((f && f.fields) || []).forEach(function (fd) { labels[fd.name] = fd.label; });
    var who = line.by && S ? (S.players.filter(function (p) { return p.id === line.by; })[0] || {}).name || line.by : line.by;
    var rest = Object.keys(line).filter(function (k) { return k !== "type" && k !== "by"; })
      .map(function (k) { return (labels[k] || k) + " " + words(line[k]); });
    return [who || "", f ? f.label : line.type].concat(rest).join(" ").trim();
  }
  function flush() {
    if (sending || stopped) return;
    var q = queue();
    if (!q.length) return;
    if (retry) { clearTimeout(retry); retry = null; }
    var item = q[0];
    sending = true;
    fetch(cfg.post_url + "?expect=" + item.expect, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": "Bearer " + token(), "Idempotency-Key": item.key},
      body: JSON.stringify(item.line)
    }).then(function (r) {
      return r.json().catch(function () { return {error: "HTTP " + r.status}; }).then(function (j) { return [r.status, j]; });
    }, function () { return [0, null]; }).then(function (res) {
      sending = false;
      var status = res[0], j = res[1];
      if (status === 0 || status === 503) {  // no connection, or the database busy: keep it, try again
        say("warn", [t.offline]);
        retry = setTimeout(flush, 1500);
        return;
      }
      var q2 = queue();
      if (status === 200 || status === 201) {
        q2.shift(); saveQueue(q2);
        known = Math.max(known, j.seq);
        $("rec-steps").textContent = String(known);
        if (j.violations && j.violations.length) {
          say("bad", [t.illegal + " (#" + j.seq + ")"].concat(j.violations.map(function (v) {
            return t.rule_word + " " + v.rule + ": " + v.message; })));
        } else {
          say("ok", [t.ok + " (#" + j.seq + ") " + lineText(item.line)]);
          okSeq = j.seq;  // relabelled in the game's notation once the state arrives
        }
        if (q2.length) flush(); else refresh(true);
        return;
      }
      if (status === 409) { stopped = true; showConflict(j, q2); return; }
      if (status === 401) {  // no token, or an unknown one: keep the line, ask for the token
        stopped = true;
        say("bad", [t.refused + " (401): " + (j.error || ""), t.need_token]);
        var box = $("rec-token").closest("details");
        if (box) box.open = true;
        return;
      }
      // refused (400 bad line, 401/403 token): drop it, later lines move up one seq
      q2.shift();
      q2.forEach(function (it) { it.expect -= 1; });
      saveQueue(q2);
      say("bad", [t.refused + " (" + status + "): " + (j.error || "")].concat(
        (j.problems || []).slice(1)).concat([lineText(item.line)]));
      if (q2.length) flush();
    });
  }
  function showConflict(j, q) {
    var box = $("rec-conflict");
    box.hidden = false; box.textContent = "";
    box.appendChild(el("p", {cls: "bad"}, t.conflict));
    box.appendChild(el("h3", {}, t.theirs));
    var a = el("ol");
    (j.recorded || []).forEach(function (line) { a.appendChild(el("li", {value: line.seq}, lineText(line))); });
    box.appendChild(a);
    box.appendChild(el("h3", {}, t.mine));
    var b = el("ol");
    q.forEach(function (item) { b.appendChild(el("li", {}, lineText(item.line))); });
    box.appendChild(b);
    var row = el("div", {cls: "rec-btns"});
    row.appendChild(btn(t.discard, function () { saveQueue([]); resolved(); }, "rec-danger", {id: "rec-discard"}));
    row.appendChild(btn(t.resend, function () {
      var steps = j.steps || known, q3 = queue();
      q3.forEach(function (it, i) { it.expect = steps + i + 1; });
      known = steps; saveQueue(q3); resolved();
    }, "rec-alt", {id: "rec-resend"}));
    box.appendChild(row);
    say("bad", [t.conflict]);
  }
  function resolved() { stopped = false; $("rec-conflict").hidden = true; flush(); refresh(true); }

  // -- the state --------------------------------------------------------------------------
  function refresh(reset) {
    var url = cfg.state_url + (!reset && S ? "&after=" + S.steps : "");
    // the token goes with it: a closed deck list's pieces are offered to this table's token only
    var auth = token() ? {"Authorization": "Bearer " + token()} : {};
    return fetch(url, {cache: "no-store", headers: auth}).then(function (r) {
      if (!r.ok) throw new Error(r.status); return r.json();
    }).then(function (s) { apply(s, reset); }).catch(function () {});
  }
  /* a state from the server: the page's first one comes with the page, its parts already
     drawn by the server (_record_parts.html) node for node as below, so drawing them again here
     (to attach the handlers) moves nothing; later ones replace the parts in place */
  function apply(s, reset) {
    if (s.unchanged) return;  // the poll found nothing new: keep the page as it is
    var changed = !S || s.steps !== S.steps;
    var first = !S;
    // the same head again (the stream's poll and the answer after a send both bring it): drawn
    // once; a control the scorekeeper is about to tap is not replaced under the thumb, and a move
    // begun since is not wiped
    if (!first && !changed) return;
    if (!first) reserve();
    S = s;
    if (!queue().length) known = s.steps;
    $("rec-steps").textContent = String(s.steps);
    if (!first) { $("rec-board").innerHTML = s.board_html; boardPicks(); }  // the first board is the page's own
    keepFocus(function () { renderLegal(); renderLast(); renderDisputes(); renderEnds(); });
    var done = S.last.filter(function (l) { return l.seq === okSeq; })[0];
    if (done) { say("ok", [t.ok + " (#" + done.seq + ") " + done.label]); okSeq = null; }
    stickies();
    if (reset || (changed && !dirty) || !cur) {
      resetForm();
      // the next move starts from the suggestions; when the first says no more than the type
      // and the player already chosen, and the form asks more (a phase's dice), from the form's
      // first field
      var lead = (S.legal[0] || {}).move || {};
      var bare = lead.type === cur.type && Object.keys(lead).every(function (k) { return k === "type" || k === "by"; })
        && ((form() || {}).fields || []).some(function (fd) { return fd.required; });
      if (!first) guide(bare ? null : $("rec-legal"), !bare);
    }
  }

  function resetForm() {
    var n = S.next || {};
    cur = {type: n.type || cfg.types[0], by: n.by || (S.players[0] || {}).id, f: {}};
    dirty = false;
    renderForm();
  }

  function renderLegal() {
    var box = $("rec-legal");
    box.textContent = "";
    S.legal.forEach(function (l, i) {
      box.appendChild(btn(l.label, function () {
        var m = clone(l.move);
        cur = {type: m.type, by: m.by || cur.by, f: {}};
        Object.keys(m).forEach(function (k) { if (k !== "type" && k !== "by") cur.f[k] = m[k]; });
        dirty = true;
        lastSet = null;
        touched();
        renderForm();
        guide();
      }, "legal-move", {"data-i": String(i), "data-move": JSON.stringify(l.move)}));
    });
  }

  function form() { return S.forms[cur.type]; }
  /* a move of type ``name`` with nothing filled; a note is on the last line, by whoever wrote
     the last note (the table's commentator writes them one after another) */
  function startOf(name, by) {
    var f = S.forms[name] || {};
    if (!f.meta) {
      var player = S.players.some(function (p) { return p.id === by; }) ? by : (S.next || {}).by;
      return {type: name, by: player, f: {}};
    }
    var last = S.last.length ? S.last[S.last.length - 1].seq : undefined;
    return {type: name, by: S.note_by, f: last === undefined ? {} : {on: last}};
  }
  /* Focus stays on the control just used: the form is drawn anew after every tap, so the
     control is found again by what it is (its data-* attributes and those of its rows). */
  function focusKey(n) {
    if (!n || n === document.body || !n.closest || !n.closest("main")) return null;
    var parts = [];
    for (var e = n; e && e.tagName !== "MAIN"; e = e.parentElement) {
      if (e.id) { parts.push("#" + e.id); break; }
      var a = Array.prototype.filter.call(e.attributes, function (x) {
        return x.name.indexOf("data-") === 0 && x.name !== "data-label";
      }).map(function (x) { return x.name + "=" + x.value; }).join(",");
      parts.push(e.tagName + "[" + a + "]");
    }
    return parts.join("<");
  }
  function keepFocus(fn) {
    var before = document.activeElement, key = focusKey(before), field = before && before.closest ? before.closest("[data-field]") : null;
    var fieldName = field ? field.getAttribute("data-field") : null;
    fn();
    if (!key || document.body.contains(before)) return;
    var all = document.querySelectorAll("main button, main select, main input, main summary, main [tabindex]");
    for (var i = 0; i < all.length; i++) if (focusKey(all[i]) === key) { all[i].focus(); return; }
    var row = fieldName ? document.querySelector('#rec-form [data-field="' + fieldName + '"]') : null;
    var next = (row && row.querySelector("button, select, input")) || $("rec-send");
    next.focus();
  }
  function renderForm() { keepFocus(function () { drawForm(); roveAll(); }); boardPicks(); }

  /* The board is the input: a die, a card, a figure or a square on the board ([data-pick]) fills
     the field that wants it, the first of the form still without that value among its buttons
     (a list takes it as its next item). The board's piece carries that field and the value
     (data-field, data-value: docs/recording-page.md), worked out anew whenever the form or the
     board is drawn; the server marks the first paint the same way (recording.board_picks). */
  function ownButtons(r) {
    return Array.prototype.filter.call(r.querySelectorAll("button[data-value]"), function (x) { return x.closest("[data-field]") === r; });
  }
  function boardPicks() {
    var picks = document.querySelectorAll("#rec-board [data-pick]");
    if (!picks.length) return;
    var rows = Array.prototype.filter.call(document.querySelectorAll("#rec-form [data-field]"), function (r) {
      var n = r.getAttribute("data-field");
      return n !== "type" && n !== "by";
    }).map(function (r) {
      var bs = ownButtons(r), list = bs.some(function (x) { return x.getAttribute("data-value") === "[]"; });
      var filled = !list && bs.some(function (x) { return x.getAttribute("aria-pressed") === "true"; });
      var free = {};
      if (!filled) bs.forEach(function (x) { if (x.getAttribute("aria-pressed") !== "true") free[x.getAttribute("data-value")] = true; });
      return {name: r.getAttribute("data-field"), free: free};
    });
    Array.prototype.forEach.call(picks, function (p) {
      var v = p.getAttribute("data-pick"), row = rows.filter(function (r) { return r.free[v]; })[0];
      if (row) { p.setAttribute("data-field", row.name); p.setAttribute("data-value", v); }
      else { p.removeAttribute("data-field"); p.removeAttribute("data-value"); }
    });
  }
  $("rec-board").addEventListener("click", function (e) {
    var p = e.target.closest ? e.target.closest("[data-pick][data-field]") : null;
    if (!p) return;
    var name = p.getAttribute("data-field"), v = p.getAttribute("data-value");
    var row = Array.prototype.filter.call(document.querySelectorAll("#rec-form [data-field]"), function (r) {
      return r.getAttribute("data-field") === name; })[0];
    var b = row && ownButtons(row).filter(function (x) { return x.getAttribute("data-value") === v; })[0];
    if (b) b.click();
  });
  /* each row of choices is one tab stop (the chosen one, or the first); the arrow keys move
     within it and Space or Enter picks: a move is Tab, arrows, Space from group to group */
  function rove(c) {
    var bs = Array.prototype.filter.call(c.children, function (b) { return b.tagName === "BUTTON" && b.hasAttribute("aria-pressed"); });
    if (bs.length < 2) return;
    c.setAttribute("data-rove", "");
    var on = bs.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; })[0] || bs[0];
    bs.forEach(function (b) { b.setAttribute("tabindex", b === on || b === document.activeElement ? "0" : "-1"); });
    if (document.activeElement && bs.indexOf(document.activeElement) >= 0 && document.activeElement !== on) on.setAttribute("tabindex", "-1");
  }
  function roveAll() {
    [$("rec-types"), $("rec-by")].concat(Array.prototype.slice.call(document.querySelectorAll("#rec-fields .rec-btns, #rec-more .rec-btns"))).forEach(rove);
  }
  $("rec-form").addEventListener("keydown", function (e) {
    var b = e.target, box = b && b.parentElement;
    if (!box || !box.hasAttribute("data-rove") || b.tagName !== "BUTTON") return;
    var bs = Array.prototype.filter.call(box.children, function (x) { return x.tagName === "BUTTON" && x.hasAttribute("aria-pressed"); });
    var i = bs.indexOf(b), to = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") to = bs[(i + 1) % bs.length];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") to = bs[(i - 1 + bs.length) % bs.length];
    else if (e.key === "Home") to = bs[0];
    else if (e.key === "End") to = bs[bs.length - 1];
    if (!to) return;
    e.preventDefault();
    bs.forEach(function (x) { x.setAttribute("tabindex", x === to ? "0" : "-1"); });
    to.focus();
  });
  var skip = $("rec-skip");
  if (skip) skip.onclick = function (e) {
    e.preventDefault();
    /* the form's first control: its first field's, else the move types' (the fields come first) */
    var first = document.querySelector('#rec-fields button[tabindex="0"], #rec-fields button, #rec-fields select, #rec-fields input')
      || document.querySelector('#rec-types button[tabindex="0"], #rec-types button');
    if (first) first.focus();
  };
  function drawForm() {
    var types = $("rec-types");
    types.textContent = "";
    cfg.types.forEach(function (name) {
      var f = S.forms[name];
      types.appendChild(btn(f ? f.label : name, function () { cur = startOf(name, cur.by); dirty = true; lastSet = null; touched(); renderForm(); guide(); },
        f && f.legal ? "legal-type" : "", {"aria-pressed": String(name === cur.type), "data-type": name, "data-value": name}));
    });
    var by = $("rec-by");
    by.textContent = "";
    ((form() || {}).meta ? S.roles : S.players).forEach(function (p) {
      by.appendChild(btn(p.name + " (" + p.id + ")", function () { cur.by = p.id; dirty = true; touched(); renderForm(); }, "",
        {"aria-pressed": String(p.id === cur.by), "data-by": p.id, "data-value": p.id}));
    });
    var main = $("rec-fields"), more = $("rec-more");
    main.textContent = ""; more.textContent = "";
    var hasMore = false;
    (form() ? form().fields : []).forEach(function (fd) {
      var row = el("div", {cls: "rec-row", "data-field": fd.name});
      var labelId = "rec-l-" + fd.name;
      row.appendChild(el("span", {cls: "rec-lab", title: fd.help, id: labelId}, fd.label + (fd.required ? " *" : "") + (fd.note ? " — " + fd.note : "")));
      var w = widget(fd, fd.name, cur.f[fd.name], function (x, quiet) { set(fd.name, x, quiet); });
      w.setAttribute("role", "group"); w.setAttribute("aria-labelledby", labelId);
      row.appendChild(w);
      var primary = fd.required || fd.legal || cur.f[fd.name] !== undefined || fd.kind === "number" && form().fields.some(function (o) { return o.kind === "faces"; });
      if (primary) main.appendChild(row); else { more.appendChild(row); hasMore = true; }
    });
    $("rec-more-box").hidden = !hasMore;
  }

  var lastSet = null;  // the field the scorekeeper set last: the page guides to the one after it
  function set(name, value, quiet) {
    if (value === undefined) delete cur.f[name]; else cur.f[name] = value;
    dirty = true;
    lastSet = name;
    touched();
    if (!quiet) { renderForm(); guide(); }  /* words typed: the form stays as it is (the input keeps its caret) */
  }
  /* The page brings what comes next into view, between the sticky board and the record bar, so
     the scorekeeper's thumb does not scroll: the first field still empty, else 記録する; after a
     record, the suggestions. */
  /* what sticks (the board above, the record bar below) as scroll padding: whatever scrolls a
     control into view (this page, the focus moving, a tool) keeps it clear of them */
  function stickies() {
    var box = document.querySelector(".rec-board-box"), bar = document.querySelector(".rec-bar");
    var root = document.documentElement;
    root.style.setProperty("--rec-top", (box && getComputedStyle(box).position === "sticky" ? box.offsetHeight : 0) + "px");
    root.style.setProperty("--rec-bottom", (bar ? bar.offsetHeight : 0) + "px");
  }
  function guide(target, fresh) {
    stickies();
    if (!target) {  /* after the field just set: the next empty required field, else the next empty one */
      var rows = Array.prototype.slice.call(document.querySelectorAll("#rec-fields > .rec-row"));
      var after = rows.slice(lastSet === null ? 0 : rows.map(function (r) { return r.getAttribute("data-field"); }).indexOf(lastSet) + 1);
      var empty = after.filter(function (r) { return cur.f[r.getAttribute("data-field")] === undefined; });
      var need = ((form() || {}).fields || []).filter(function (fd) { return fd.required; }).map(function (fd) { return fd.name; });
      target = empty.filter(function (r) { return need.indexOf(r.getAttribute("data-field")) >= 0; })[0] || empty[0] || $("rec-send");
    }
    /* the suggestions go to the top of what scrolls (under the board), the form after them */
    target.scrollIntoView({block: fresh && target.id !== "rec-send" ? "start" : "nearest"});
  }

  // -- the widgets: one per field kind (exports/recording.py); every control that sets a value
  //    carries data-value, its row data-field (dotted for a nested field: docs/recording-page.md) --
  function dv(x) { return typeof x === "string" ? x : JSON.stringify(x); }
  function namesOf(fd) {
    var n = fd.names || {};
    return n[cur.by] || n[""] || [];
  }
  /* the options of a field as buttons: its own, the acting player's names (a picker beyond
     NAME_BUTTONS of them), its null ("unseen", "no item") */
  var NAME_BUTTONS = 16;
  function optionsOf(fd, v) {
    var opts = (fd.options || []).slice(), names = namesOf(fd), rest = [];
    var has = function (x) { return opts.some(function (o) { return same(o.value, x); }); };
    var extra = names.filter(function (x) { return !has(x); });
    var deck = (S.decks || {})[cur.by] || [];
    var inDeck = extra.filter(function (x) { return deck.indexOf(x) >= 0; });
    if (opts.length + extra.length <= NAME_BUTTONS) extra.forEach(function (x) { opts.push({value: x, label: x}); });
    else if (inDeck.length && opts.length + inDeck.length <= NAME_BUTTONS) {  /* the player's own names as buttons */
      inDeck.forEach(function (x) { opts.push({value: x, label: x}); });
      rest = extra.filter(function (x) { return deck.indexOf(x) < 0; });
    } else rest = extra;
    if (fd.null) opts.push({value: null, label: fd.null});
    if (v !== undefined && !Array.isArray(v) && !has(v) && rest.indexOf(v) < 0) opts.push({value: v, label: v === null ? "—" : String(v)});
    return {buttons: opts, rest: rest};
  }
  function valueButtons(options, pressed, onpick, records) {
    var row = el("div", {cls: "rec-btns"});
    options.forEach(function (o) {
      var a = {"aria-pressed": String(!!pressed(o.value)), "data-value": dv(o.value)};
      if (records) a["data-action"] = "record";
      row.appendChild(btn(o.label, function () { onpick(o.value); }, "", a));
    });
    return row;
  }
  /* A list the board fixes the length of (``most``: the cards of the acting player's hand not
     yet seen, a reveal names at most as many): the item that fills it completes the move, when
     nothing else it requires is missing, and records it at once (its buttons then carry
     data-action="record" too: docs/recording-page.md). */
  function completes(fd, name, list) {
    var most = (fd.most || {})[cur.by];
    if (!most || name !== fd.name || list.length + 1 !== most) return false;
    return ((form() || {}).fields || []).every(function (o) { return !o.required || o.name === fd.name || cur.f[o.name] !== undefined; });
  }
  function picker(fd, rest, onpick) {
    if (!rest.length) return null;
    var sel = el("select", {"aria-label": fd.label + ": " + t.other, "data-names": fd.name});
    sel.appendChild(el("option", {value: ""}, t.other));
    rest.forEach(function (n) { sel.appendChild(el("option", {value: n, "data-value": n}, n)); });
    sel.onchange = function () { if (sel.value) onpick(sel.value); };
    return sel;
  }
  function widget(fd, name, v, put) {
    var box = el("div");
    if (fd.kind === "faces" || fd.kind === "choice" || fd.kind === "number") {
      var o = optionsOf(fd, v);
      var pick = function (x) { put(same(v, x) && !fd.required ? undefined : x); };
      if (o.buttons.length) box.appendChild(valueButtons(o.buttons, function (x) { return v !== undefined && same(v, x); }, pick));
      var p = picker(fd, o.rest, pick);
      if (p) box.appendChild(p);
      if (!o.buttons.length && !p) box.appendChild(textInput(fd, name, v, put));
    } else if (fd.kind === "map") {
      var val = v && typeof v === "object" ? v : {};
      fd.keys.forEach(function (k) {
        var r = el("div", {cls: "rec-map-row", "data-key": k, "data-field": name + "." + k});
        r.appendChild(el("span", {"aria-hidden": "true"}, k));
        r.appendChild(valueButtons(fd.options, function (x) { return same(val[k], x); }, function (x) {
          var nv = Object.assign({}, val);
          if (same(nv[k], x)) delete nv[k]; else nv[k] = x;
          put(Object.keys(nv).length ? nv : undefined);
        }));
        r.lastChild.setAttribute("role", "group"); r.lastChild.setAttribute("aria-label", k);
        box.appendChild(r);
      });
    } else if (fd.kind === "list") {
      var list = Array.isArray(v) ? v.slice() : [];
      var ol = optionsOf(fd, undefined), fills = completes(fd, name, list);
      var add = function (x) { put(list.concat([x])); if (fills) record(); };
      box.appendChild(valueButtons(ol.buttons, function (x) { return list.some(function (y) { return same(x, y); }); }, add, fills));
      var pl = picker(fd, ol.rest, add);
      if (pl) box.appendChild(pl);
      box.appendChild(el("div", {cls: "rec-list-now"}, list.length ? list.map(function (x) { return x === null ? fd.null || "?" : dv(x); }).join(" → ") : t.none));
      box.appendChild(clearRow(v, put));
    } else if (fd.kind === "object") {
      var obj = v && typeof v === "object" ? v : {};
      fd.fields.forEach(function (sub) {
        box.appendChild(subRow(sub, name + "." + sub.name, obj[sub.name], function (x) {
          var no = Object.assign({}, obj);
          if (x === undefined) delete no[sub.name]; else no[sub.name] = x;
          put(Object.keys(no).length ? no : undefined);
        }));
      });
    } else if (fd.kind === "objlist") {
      var items = Array.isArray(v) ? v.slice() : [];
      items.concat([{}]).forEach(function (item, i) {
        var ibox = el("div", {cls: "rec-item"});
        var putItem = function (k, x) {
          var ni = items.slice(), it = Object.assign({}, ni[i] || {});
          if (x === undefined) delete it[k]; else it[k] = x;
          if (fd.key && k === fd.key.name) { it = x === undefined ? {} : {}; if (x !== undefined) it[k] = x; }
          ni[i] = it;
          while (ni.length && !Object.keys(ni[ni.length - 1]).length) ni.pop();
          put(ni.length ? ni : undefined);
        };
        var subs = fd.key ? [fd.key].concat(item[fd.key.name] !== undefined ? (fd.variants[item[fd.key.name]] || []) : []) : fd.fields;
        subs.forEach(function (sub) {
          ibox.appendChild(subRow(sub, name + "." + i + "." + sub.name, item[sub.name], function (x) { putItem(sub.name, x); }));
        });
        box.appendChild(ibox);
      });
      box.appendChild(clearRow(v, put));
    } else if (fd.kind === "flag") {
      box.appendChild(btn(v ? "✓" : "—", function () { put(v ? undefined : true); }, "", {"aria-pressed": String(!!v), "data-value": "true"}));
    } else {
      box.appendChild(textInput(fd, name, v, put));
    }
    return box;
  }
  /* a list's "empty" control: sets the field to [] (a turn end that discarded nothing) */
  function clearRow(v, put) {
    var row = el("div", {cls: "rec-btns"});
    var empty = Array.isArray(v) && !v.length;
    row.appendChild(btn(Array.isArray(v) && v.length ? t.clear : t.empty, function () { put(empty ? undefined : []); }, "rec-alt",
      {"aria-pressed": String(empty), "data-value": "[]"}));
    return row;
  }
  function subRow(sub, name, v, put) {
    var row = el("div", {cls: "rec-sub", "data-field": name});
    var labelId = "rec-l-" + name;
    row.appendChild(el("span", {cls: "rec-lab", id: labelId}, sub.label));
    var w = widget(sub, name, v, put);
    w.setAttribute("role", "group"); w.setAttribute("aria-labelledby", labelId);
    row.appendChild(w);
    return row;
  }
  function textInput(fd, name, v, put) {
    var input = el("input", {type: "text", "data-text": name, "aria-labelledby": "rec-l-" + name});
    input.value = v === undefined ? "" : (typeof v === "string" ? v : JSON.stringify(v));
    input.oninput = function () {
      var s = input.value.trim(), x;
      if (s === "") x = undefined;
      else if (fd.kind === "text") x = s;
      else { try { x = JSON.parse(s); } catch (e) { x = s; } }
      put(x, true);
    };
    return input;
  }

  function built() {
    var line = {type: cur.type, by: cur.by};
    Object.keys(cur.f).forEach(function (k) { if (cur.f[k] !== undefined) line[k] = cur.f[k]; });
    return line;
  }
  function lastMove() {
    for (var i = S.last.length - 1; i >= 0; i--) if (!S.last[i].meta) return S.last[i];
    return null;
  }
  function afterSend() {
    // Offline, the board cannot be asked for the next move: keep the type and player, clear the fields.
    reserve();
    cur = {type: cur.type, by: cur.by, f: {}};
    dirty = false;
    renderForm();
  }
  // A double tap must not record twice: not the same move again, and not the next player's
  // likely move the form may already have been reset to. The buttons rest for a moment.
  // A tap in the form (a suggestion, a type, a field) ends the rest at once: a double tap touches
  // nothing between its two taps, a scorekeeper at the speed of play does.
  var resting = false, restTimer = null;
  function rest() {  /* aria-disabled, not disabled: a disabled button would drop the focus to <body> */
    resting = true;
    ["rec-send", "rec-correct", "rec-judge"].forEach(function (id) { $(id).setAttribute("aria-disabled", "true"); });
    restTimer = setTimeout(unrest, 600);
  }
  function touched() { release(); unrest(); }  /* a tap in the form */
  function unrest() {
    if (!resting) return;
    resting = false;
    clearTimeout(restTimer);
    ["rec-send", "rec-correct", "rec-judge"].forEach(function (id) { $(id).removeAttribute("aria-disabled"); });
  }
  function record() {
    if (resting) return;
    var line = built();
    rest();
    enqueue(line);
    afterSend();
  }
  $("rec-send").onclick = record;
  $("rec-judge").onclick = function () {
    var last = lastMove();
    if (!last || resting) return;
    rest();
    var line = {type: "dispute", on: last.seq, by: keeper(), claim: t.dispute_claim};
    if (last.violations.length) line.rule = last.violations[0].rule;
    enqueue(line);
  };
  $("rec-correct").onclick = function () {
    var last = lastMove();
    if (!last || resting) return;
    rest();
    enqueue({type: "correct", on: last.seq, by: keeper(), text: t.correct_text,
             replace: [built()]});
    afterSend();
  };

  // -- table actions: per line (dispute, note), concession, result, rulings ------------------
  var armed = null;
  function twoTap(b, action) {
    return function () {
      if (armed === b) { armed = null; action(); return; }
      if (armed) { armed.classList.remove("armed"); armed.textContent = armed.getAttribute("data-label"); }
      armed = b; b.classList.add("armed"); b.textContent = t.armed;
    };
  }
  function keeper() { return cfg.lang === "en" ? "scorekeeper" : "記録係"; }
  function renderLast() {
    var ol = $("rec-last");
    ol.textContent = "";
    S.last.forEach(function (l) {
      var li = el("li", {value: l.seq, "data-seq": l.seq});
      li.appendChild(el("span", {}, l.label));
      l.violations.forEach(function (v) { li.appendChild(el("div", {cls: "viol"}, "⚠ " + t.rule_word + " " + v.rule + ": " + v.message)); });
      if (!l.meta) {
        var row = el("div", {cls: "rec-btns"});
        row.appendChild(btn(t.dispute, function () {
          var line = {type: "dispute", on: l.seq, by: keeper(), claim: t.dispute_claim};
          if (l.violations.length) line.rule = l.violations[0].rule;
          enqueue(line);
        }, "rec-alt", {"data-dispute": l.seq}));
        row.appendChild(btn(t.annotate, function () {
          enqueue({type: "annotate", on: l.seq, by: keeper(), text: t.annotate_text, symbol: "?"});
        }, "rec-alt", {"data-note": l.seq}));
        li.appendChild(row);
      }
      ol.appendChild(li);
    });
  }
  function renderEnds() {
    var box = $("rec-ends");
    box.textContent = "";
    S.players.forEach(function (p) {
      var b = btn(p.name + " " + t.concede, null, "rec-danger", {"data-concede": p.id, "data-label": p.name + " " + t.concede});
      b.onclick = twoTap(b, function () { enqueue({type: "concede", by: p.id}); });
      box.appendChild(b);
    });
    S.players.concat([{id: null, name: t.draw}]).forEach(function (p) {
      var label = t.result + ": " + (p.id ? p.name : t.draw);
      var b = btn(label, null, "rec-alt", {"data-result": p.id === null ? "draw" : p.id, "data-label": label});
      b.onclick = twoTap(b, function () { enqueue({type: "result", by: keeper(), winner: p.id, reason: "agreed"}); });
      box.appendChild(b);
    });
  }
  function renderDisputes() {
    var box = $("rec-disputes");
    box.textContent = "";
    $("rec-disputes-sec").hidden = !S.disputes.length;
    S.disputes.forEach(function (d) {
      var div = el("div", {cls: "rec-disp", "data-open-dispute": d.dispute});
      div.appendChild(el("div", {}, "#" + d.dispute + " → " + d.on + ": " + (d.claim || "") + (d.rule ? " (" + d.rule + ")" : "")));
      if (d.suggest) div.appendChild(el("div", {}, t.suggest + ": " + d.suggest_label));
      var row = el("div", {cls: "rec-btns"});
      row.appendChild(btn(t.upheld, function () {
        enqueue({type: "ruling", dispute: d.dispute, by: t.judge, decision: "upheld", text: t.ruling_text});
      }, "", {"data-uphold": d.dispute}));
      if (d.suggest) {
        row.appendChild(btn(t.overturned, function () {
          enqueue({type: "ruling", dispute: d.dispute, by: t.judge, decision: "overturned", text: t.ruling_text,
                   rule: d.suggest_rule, replace: d.suggest});
        }, "", {"data-overturn": d.dispute}));
      } else {
        row.appendChild(btn(t.overturned_plain, function () {
          enqueue({type: "ruling", dispute: d.dispute, by: t.judge, decision: "overturned", text: t.ruling_text});
        }, "", {"data-overturn": d.dispute}));
      }
      div.appendChild(row);
      box.appendChild(div);
    });
  }

  showQueue();
  if (cfg.initial) { apply(cfg.initial, true); flush(); } else refresh(true).then(function () { flush(); });
  window.addEventListener("online", flush);
  kifuFollow(cfg.stream_url, function () { if (!sending && !queue().length) return refresh(false); }, 4000);
})();
