/* kifu step-through: the same script drives the report file (boards embedded) and the
   server page (boards fetched per step, a window of the move list fetched when stepping out
   of it, live follow by polling). → and autoplay go from move to move; Shift+→ goes through
   every line, notes too. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var cfg = JSON.parse(document.getElementById("kifu-data").textContent);
  var T = cfg.t || {};
  var view = cfg.view, step = cfg.step, steps = cfg.steps, timer = null, cache = {};
  var notes = {}, turns = cfg.turns, flipped = false;
  function setNotes(list) { notes = {}; (list || []).forEach(function (n) { notes[n] = true; }); }
  setNotes(cfg.note_steps);
  var $ = function (id) { return document.getElementById(id); };
  var boardEl = $("board"), slider = $("slider"), label = $("step-label"), lastMove = $("last-move");
  var store = {get: function (k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
               set: function (k, v) { try { localStorage.setItem(k, v); } catch (e) {} }};

  function fmt(s, args) { return String(s || "").replace(/\{(\w+)\}/g, function (m, k) { return k in args ? args[k] : m; }); }
  /* the report's boards, each a change to the one before it: decoded when first shown (and
     the ones before it, once), not all on load */
  function decoded(t, i) {
    if (!t.html) t.html = [];
    while (t.html.length <= i) {
      var c = t.delta[t.html.length], prev = t.html.length ? t.html[t.html.length - 1] : "";
      t.html.push(typeof c === "string" ? c : c.map(function (p) {
        return typeof p === "string" ? p : prev.slice(p[0], p[1]);
      }).join(""));
    }
    return t.html[i];
  }
  function embedded(v, n) {
    var t = cfg.boards && cfg.boards[v];
    return t && n < t.index.length ? {html: decoded(t, t.index[n]), caption: cfg.captions[v][n],
                                      result: cfg.results && cfg.results[v]} : null;
  }
  function fetchFrame(v, n) {
    return fetch(cfg.frame_url + "?step=" + n + "&view=" + encodeURIComponent(v) + "&lang=" + cfg.lang)
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) {
        if (!j) return null;
        var f = {html: j.html, caption: j.caption, result: j.result_html};
        cache[v + ":" + n] = f;
        return f;
      });
  }

  /* perspective: a flipped board lists the players the other way round and turns the grid,
     so the chosen seat's side is nearest (at the bottom) */
  function orient() {
    if (!flipped) return;
    boardEl.querySelectorAll(".players").forEach(function (box) {
      Array.prototype.slice.call(box.children).reverse().forEach(function (el) { box.appendChild(el); });
    });
    boardEl.querySelectorAll("table.grid").forEach(function (t) {
      var rows = Array.prototype.slice.call(t.rows);
      var head = rows.shift(), body = rows[0] ? rows[0].parentNode : null;
      rows.reverse().forEach(function (tr) { body.appendChild(tr); });
      rows.concat([head]).forEach(function (tr) {
        var cells = Array.prototype.slice.call(tr.cells), first = cells.shift();
        cells.reverse().forEach(function (c) { tr.appendChild(c); });
        if (first) tr.insertBefore(first, tr.firstChild);
      });
      t.classList.add("flipped");
    });
  }
  function nearest() {
    var ps = boardEl.querySelectorAll(".players > *");
    var last = ps.length ? ps[ps.length - 1] : null;
    var h = last ? last.querySelector(".p-head") : null;
    var m = h ? /\(([^()]+)\)\s*$/.exec(h.textContent) : null;
    return m ? m[1] : "";
  }
  function syncSeat() { var s = $("seat"); if (s) s.value = nearest(); }

  var currentHtml = boardEl.innerHTML, resultView = cfg.view;
  function setBoard(html) {
    if (html === null || html === undefined) return;
    currentHtml = html;
    boardEl.innerHTML = html;
    orient();
  }
  function rowCaption(n) {
    var li = $("step-" + n);
    return li ? li.getAttribute("data-caption") : null;
  }
  /* no spoilers: while the result is folded away, the chart shows only what is known at the
     step on screen (the server drew it so; this keeps it so as the reader steps) */
  function folded() {
    var fold = document.querySelector("#match-result details.spoiler");
    return !!fold && !fold.open;
  }
  function chartUpto(n) {
    var svg = $("chart");
    if (!svg) return;
    var hide = folded();
    var top = 1;
    Array.prototype.forEach.call(svg.querySelectorAll("[data-at]"), function (el) {
      var later = hide && parseInt(el.getAttribute("data-at"), 10) > n;
      el.classList.toggle("later", later);
      if (!later && el.hasAttribute("data-value")) top = Math.max(top, parseInt(el.getAttribute("data-value"), 10));
    });
    rescale(svg, top);
    /* one point in the tab order: the nearest at or before the step, on the line last used */
    var had = document.activeElement && document.activeElement.closest && document.activeElement.closest("#chart [data-chart-step]");
    var who = had ? had.getAttribute("data-player") : (svg.querySelector("circle[data-player]") || {getAttribute: function () { return ""; }}).getAttribute("data-player");
    var best = null;
    Array.prototype.forEach.call(svg.querySelectorAll("circle[data-chart-step]"), function (c) {
      c.setAttribute("tabindex", "-1");
      if (c.getAttribute("data-player") === who && parseInt(c.getAttribute("data-chart-step"), 10) <= n) best = c;
    });
    if (best) { best.setAttribute("tabindex", "0"); if (had && had !== best) best.focus(); }
  }
  /* the y axis goes as high as the values shown: nothing hints at what the hidden part reaches */
  function rescale(svg, top) {
    if (String(top) === svg.getAttribute("data-top")) return;
    var y0 = parseFloat(svg.getAttribute("data-y-zero")), y1 = parseFloat(svg.getAttribute("data-y-top"));
    if (isNaN(y0) || isNaN(y1)) return;
    svg.setAttribute("data-top", String(top));
    var y = function (v) { return (y0 - (y0 - y1) * (v / top)).toFixed(1); };
    Array.prototype.forEach.call(svg.querySelectorAll("circle[data-value]"), function (c) { c.setAttribute("cy", y(+c.getAttribute("data-value"))); });
    Array.prototype.forEach.call(svg.querySelectorAll("line[data-v0]"), function (l) {
      l.setAttribute("y1", y(+l.getAttribute("data-v0"))); l.setAttribute("y2", y(+l.getAttribute("data-v1")));
    });
    var ticks = {"0": 0, half: Math.floor(top / 2), top: top};
    Array.prototype.forEach.call(svg.querySelectorAll("[data-tick]"), function (el) {
      var v = ticks[el.getAttribute("data-tick")];
      if (el.tagName.toLowerCase() === "text") { el.textContent = String(v); el.setAttribute("y", (parseFloat(y(v)) + 4).toFixed(1)); }
      else { el.setAttribute("y1", y(v)); el.setAttribute("y2", y(v)); }
    });
  }
  document.addEventListener("toggle", function (e) {
    if (e.target.closest && e.target.closest("#match-result")) chartUpto(step);
  }, true);
  function chartKey(e, pt) {
    var mine = Array.prototype.filter.call($("chart").querySelectorAll("circle[data-chart-step]"), function (c) {
      return c.getAttribute("data-player") === pt.getAttribute("data-player");
    });
    var i = mine.indexOf(pt), to = null;
    if (e.key === "Enter" || e.key === " ") to = pt;
    else if (e.key === "ArrowRight") to = mine[Math.min(mine.length - 1, i + 1)];
    else if (e.key === "ArrowLeft") to = mine[Math.max(0, i - 1)];
    else if (e.key === "Home") to = mine[0];
    else if (e.key === "End") to = mine[mine.length - 1];
    else return false;
    e.preventDefault(); stop();
    to.classList.remove("later");  /* the board is going there: so is what the chart shows */
    to.setAttribute("tabindex", "0"); to.focus();
    go(parseInt(to.getAttribute("data-chart-step"), 10));
    return true;
  }
  function langLink(n) {  /* the language switch opens the other language at this step */
    var a = $("lang-link");
    if (!a || cfg.mode === "report") return;
    var u = new URL(a.getAttribute("href"), location.href);
    u.searchParams.set("step", String(n)); u.searchParams.set("view", view);
    a.setAttribute("href", u.pathname + u.search);
  }
  /* scroll the list, never the page, so the line on screen is in view: it reads the layout */
  function reveal(li) {
    var box = li.closest(".timeline");
    if (box && box.scrollHeight > box.clientHeight) {
      var top = li.offsetTop - box.offsetTop, bottom = top + li.offsetHeight;
      if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }
  function show(n, frame, drawn) {
    if (frame) setBoard(frame.html);
    slider.max = steps; slider.value = n;
    label.textContent = fmt(T.line, {n: n, total: steps});
    var caption = frame && frame.caption !== undefined ? frame.caption : rowCaption(n);
    if (n === 0) lastMove.textContent = T.start;
    else if (frame || caption !== null) lastMove.textContent = "#" + n + " " + (caption || "");
    if (frame && frame.result && $("match-result") && resultView !== view) {  /* the header follows the view */
      $("match-result").innerHTML = frame.result;
      resultView = view;
    }
    var cur = document.querySelector("#moves li.current");
    if (cur) cur.classList.remove("current");
    var li = $("step-" + n);
    if (li) {
      li.classList.add("current");
      if (!drawn) reveal(li);
    }
    if (cfg.mode === "report") {
      history.replaceState(null, "", "#step-" + n);
    } else {
      history.replaceState(null, "", "?step=" + n + "&view=" + encodeURIComponent(view) + (cfg.lang_param ? "&lang=" + cfg.lang : ""));
    }
    document.body.setAttribute("data-step", String(n));
    document.body.setAttribute("data-view", view);
    chartUpto(n);
    langLink(n);
  }
  function ensureWindow(n) {
    var list = $("moves");
    if (!cfg.moves_url || !list) return Promise.resolve();
    var lo = parseInt(list.getAttribute("data-lo"), 10), hi = parseInt(list.getAttribute("data-hi"), 10);
    if (n === 0 ? lo <= 1 : (n >= lo && n <= hi)) return Promise.resolve();
    return fetch(cfg.moves_url + "?step=" + n + "&view=" + encodeURIComponent(view) + "&lang=" + cfg.lang)
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html) $("moves-box").innerHTML = html; });
  }
  function go(n) {
    n = Math.max(0, Math.min(steps, n | 0));
    step = n;
    var frame = cfg.boards ? embedded(view, n) : cache[view + ":" + n];
    var win = ensureWindow(n);
    if (frame) { win.then(function () { if (step === n) show(n, frame); }); show(n, frame); return; }
    Promise.all([fetchFrame(view, n), win]).then(function (r) { if (step === n) show(n, r[0]); });
  }
  /* → and autoplay go from move to move: a note (annotation, dispute, ruling ...) leaves the board as it was */
  function nextBoard(from) {
    for (var n = from + 1; n <= steps; n++) if (!notes[n]) return n;
    return steps;
  }
  function prevBoard(from) {
    for (var n = from - 1; n > 0; n--) if (!notes[n]) return n;
    return 0;
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    $("btn-play").textContent = "▶ " + T.play;
  }
  function play() {
    if (timer) { stop(); return; }
    if (step >= steps) go(0);
    $("btn-play").textContent = "⏸ " + T.pause;
    timer = setInterval(function () {
      if (step < steps) go(nextBoard(step));
      if (step >= steps) stop();
    }, parseInt($("speed").value, 10) || 1000);
  }
  function flip() {
    flipped = !flipped;
    setBoard(currentHtml);
    syncSeat();
    store.set("kifu-flipped", flipped ? "1" : "");
  }
  $("btn-first").onclick = function () { stop(); go(0); };
  $("btn-prev").onclick = function () { stop(); go(prevBoard(step)); };
  $("btn-next").onclick = function () { stop(); go(nextBoard(step)); };
  $("btn-last").onclick = function () { stop(); go(steps); };
  $("btn-play").onclick = play;
  $("btn-flip").onclick = flip;
  $("speed").onchange = function () { if (timer) { stop(); play(); } };
  slider.oninput = function () { stop(); go(parseInt(slider.value, 10)); };
  if ($("view")) $("view").onchange = function () { view = this.value; cache = {}; go(step); };
  if ($("seat")) $("seat").onchange = function () {
    var want = this.value;
    if (want && nearest() !== want) flip();
    syncSeat();
  };
  if ($("turn-form")) $("turn-form").onsubmit = function (e) {
    e.preventDefault();
    var want = parseInt($("turn-input").value, 10);
    if (isNaN(want)) return;
    stop();
    if (!turns) {  /* a long match: the server knows where each turn starts */
      fetch(cfg.frame_url + "?turn=" + want + "&view=" + encodeURIComponent(view) + "&lang=" + cfg.lang)
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (j) { if (j) go(j.step); });
      return;
    }
    for (var i = 0; i < turns.length; i++) if (turns[i][0] >= want) { go(turns[i][1]); return; }
    go(steps);
  };
  document.addEventListener("keydown", function (e) {
    var t = e.target, tag = t && t.tagName;
    if ((tag === "INPUT" && t.type !== "range") || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var pt = t && t.closest ? t.closest("#chart [data-chart-step]") : null;
    if (pt && chartKey(e, pt)) return;
    /* Space and Enter on a control are the control's own (open the result, follow a link,
       press a button): autoplay is Space anywhere else */
    var control = t && t.closest ? t.closest("a, button, summary, label, [role=button], input[type=range]") : null;
    var to;
    if (e.key === "ArrowRight") to = e.shiftKey ? step + 1 : nextBoard(step);
    else if (e.key === "ArrowLeft") to = e.shiftKey ? step - 1 : prevBoard(step);
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = steps;
    else if (e.key === "f" || e.key === "F") { e.preventDefault(); flip(); return; }
    else if (e.key === " " && !control) { e.preventDefault(); play(); return; }
    if (to === undefined) return;
    e.preventDefault(); stop(); go(to);
  });
  document.addEventListener("click", function (e) {
    var el = e.target.closest ? e.target : null;
    if (!el) return;
    var pt = el.closest("[data-chart-step]");
    if (pt) { e.preventDefault(); stop(); go(parseInt(pt.getAttribute("data-chart-step"), 10)); return; }
    var a = el.closest("a.jump");
    if (a) { e.preventDefault(); stop(); go(parseInt(a.getAttribute("data-step"), 10)); return; }
    if (el.closest("a, button, details, input, select, label")) return;
    var li = el.closest("#moves li.row");
    if (li) { stop(); go(parseInt(li.getAttribute("data-step"), 10)); }
  });
  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  window.addEventListener("hashchange", function () { var n = fromHash(); if (n !== null && n !== step) go(n); });

  /* live follow (server): on news of new lines (_follow.js) fetch them; the last window of the move list is re-rendered by the server */
  function poll() {
    return fetch(cfg.poll_url + "?after=" + steps + "&view=" + encodeURIComponent(view) + "&lang=" + cfg.lang)
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) {
        if (j && j.steps !== steps) {
          var atEnd = step >= steps, follow = $("follow");
          var list = $("moves"), showsEnd = list && parseInt(list.getAttribute("data-hi"), 10) >= steps;
          steps = j.steps; cache = {};
          if (j.note_steps) setNotes(j.note_steps);
          if (turns && j.turns) turns = j.turns;
          if (showsEnd || (atEnd && (!follow || follow.checked))) $("moves-box").innerHTML = j.moves;
          var head = document.createElement("div"); head.innerHTML = j.head;
          $("match-head").replaceWith(head.firstElementChild);
          go(atEnd && (!follow || follow.checked) ? steps : step);
        }
      })
      .catch(function () {});
  }

  /* The page as the server drew it is the page at this step (board, caption, current line,
     chart): the script only takes it over, reading no layout while the page is being parsed
     (that would lay out the whole page inside this task: Lighthouse's total blocking time).
     The list is scrolled to the current line once the page has been painted. */
  if (store.get("kifu-flipped")) { flipped = true; orient(); }
  syncSeat();
  var start = cfg.mode === "report" ? fromHash() : null;
  if (start === null && cfg.mode === "report" && cfg.finished && store.get("kifu-spoilers") === "show") start = steps;
  if ((start === null || start === step) && !flipped) {
    show(step, null, true);  /* the server drew this step's board: keep it, no second layout of the same board */
    var painted = function () { var li = $("step-" + step); if (li) reveal(li); };
    if (window.requestAnimationFrame) requestAnimationFrame(function () { setTimeout(painted, 0); }); else setTimeout(painted, 0);
  } else {
    go(start === null ? step : start);
  }
  if (cfg.poll_url) kifuFollow(cfg.stream_url, poll, cfg.poll_ms || 1000);
})();
