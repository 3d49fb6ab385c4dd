/* kifu step-through: the same script drives the report file (boards embedded) and the
   server page (boards fetched per step, live follow by polling). */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var cfg = JSON.parse(document.getElementById("kifu-data").textContent);
  var view = cfg.view, step = cfg.step, steps = cfg.steps, timer = null, cache = {};
  var $ = function (id) { return document.getElementById(id); };
  var boardEl = $("board"), slider = $("slider"), label = $("step-label"), lastMove = $("last-move");

  function decode(chunks) {
    var out = [], prev = "";
    chunks.forEach(function (c) {
      var s = typeof c === "string" ? c : c.map(function (p) {
        return typeof p === "string" ? p : prev.slice(p[0], p[1]);
      }).join("");
      out.push(s); prev = s;
    });
    return out;
  }
  if (cfg.boards) Object.keys(cfg.boards).forEach(function (v) { cfg.boards[v].html = decode(cfg.boards[v].delta); });
  function embedded(v, n) {
    var t = cfg.boards && cfg.boards[v];
    return t && n < t.index.length ? t.html[t.index[n]] : null;
  }
  function fetchBoard(v, n) {
    return fetch(cfg.frame_url + "?step=" + n + "&view=" + encodeURIComponent(v))
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) { if (j) { cache[v + ":" + n] = j.html; return j.html; } return null; });
  }
  function rowText(n) {
    var li = $("step-" + n);
    if (!li || n === 0) return "start of match";
    var copy = li.cloneNode(true);
    copy.querySelectorAll(".print-board, .both-views, .viol").forEach(function (el) { el.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  function show(n, html) {
    if (html !== null && html !== undefined) boardEl.innerHTML = html;
    slider.max = steps; slider.value = n;
    label.textContent = "step " + n + " / " + steps;
    lastMove.textContent = n === 0 ? "start of match" : ("#" + n + " " + rowText(n).replace(/^\d+\s*/, "")).slice(0, 200);
    var cur = document.querySelector("#moves li.current");
    if (cur) cur.classList.remove("current");
    var li = $("step-" + n);
    if (li) {
      li.classList.add("current");
      var box = li.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) li.scrollIntoView({block: "nearest"});
    }
    if (cfg.mode === "report") {
      history.replaceState(null, "", "#step-" + n);
    } else {
      history.replaceState(null, "", "?step=" + n + "&view=" + encodeURIComponent(view));
    }
    document.body.setAttribute("data-step", String(n));
  }
  function go(n) {
    n = Math.max(0, Math.min(steps, n | 0));
    step = n;
    var html = cfg.boards ? embedded(view, n) : cache[view + ":" + n];
    if (html !== null && html !== undefined) { show(n, html); return; }
    fetchBoard(view, n).then(function (h) { if (step === n) show(n, h); });
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    $("btn-play").textContent = "▶ play";
  }
  function play() {
    if (timer) { stop(); return; }
    if (step >= steps) go(0);
    $("btn-play").textContent = "⏸ pause";
    timer = setInterval(function () {
      if (step < steps) go(step + 1);
      if (step >= steps) stop();
    }, parseInt($("speed").value, 10) || 1000);
  }
  $("btn-first").onclick = function () { stop(); go(0); };
  $("btn-prev").onclick = function () { stop(); go(step - 1); };
  $("btn-next").onclick = function () { stop(); go(step + 1); };
  $("btn-last").onclick = function () { stop(); go(steps); };
  $("btn-play").onclick = play;
  $("speed").onchange = function () { if (timer) { stop(); play(); } };
  slider.oninput = function () { stop(); go(parseInt(slider.value, 10)); };
  if ($("view")) $("view").onchange = function () { view = this.value; go(step); };
  document.addEventListener("keydown", function (e) {
    var t = e.target, tag = t && t.tagName;
    if ((tag === "INPUT" && t.type !== "range") || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: steps}[e.key];
    if (to === undefined) return;
    e.preventDefault(); stop(); go(to);
  });
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a.jump") : null;
    if (!a) return;
    e.preventDefault(); stop(); go(parseInt(a.getAttribute("data-step"), 10));
  });
  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  window.addEventListener("hashchange", function () { var n = fromHash(); if (n !== null && n !== step) go(n); });

  /* live follow (server): poll for new lines; the move list is re-rendered by the server */
  function poll() {
    fetch(cfg.poll_url + "?after=" + steps + "&view=" + encodeURIComponent(view))
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) {
        if (j && j.steps !== steps) {
          var atEnd = step >= steps;
          steps = j.steps; cache = {};
          $("moves-box").innerHTML = j.moves;
          $("match-head").outerHTML = j.head;
          var follow = $("follow");
          go(atEnd && (!follow || follow.checked) ? steps : step);
        }
      })
      .catch(function () {})
      .then(function () { setTimeout(poll, cfg.poll_ms || 1000); });
  }

  var start = cfg.mode === "report" ? fromHash() : null;
  go(start === null ? step : start);
  if (cfg.poll_url) setTimeout(poll, cfg.poll_ms || 1000);
})();
