/* The broadcast view follows the match: on the server it hears of new lines (_follow.js) and shows the
   newest board; a report file (boards embedded) steps with the arrow keys. */
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("kifu-data").textContent);
  var step = cfg.step, steps = cfg.steps;
  var board = document.getElementById("board"), caption = document.getElementById("ov-caption");
  function decode(chunks) {
    var out = [], prev = "";
    chunks.forEach(function (c) {
      var s = typeof c === "string" ? c : c.map(function (p) { return typeof p === "string" ? p : prev.slice(p[0], p[1]); }).join("");
      out.push(s); prev = s;
    });
    return out;
  }
  function show(n, html, text) {
    step = n;
    if (html !== null && html !== undefined) board.innerHTML = html;
    caption.textContent = n === 0 ? cfg.start : "#" + n + " " + (text || "");
    document.body.setAttribute("data-step", String(n));
  }
  if (cfg.boards) {
    var t = cfg.boards[cfg.view]; t.html = decode(t.delta);
    var go = function (n) { n = Math.max(0, Math.min(steps, n)); show(n, t.html[t.index[n]], cfg.captions[cfg.view][n]); };
    document.addEventListener("keydown", function (e) {
      var to = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: steps}[e.key];
      if (to !== undefined) { e.preventDefault(); go(to); }
    });
    go(step);
    return;
  }
  function poll() {
    return fetch(cfg.poll_url + "?after=" + steps + "&view=" + encodeURIComponent(cfg.view) + "&lang=" + cfg.lang + "&head=0")
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) {
        if (!j || j.steps === steps) return null;
        steps = j.steps;
        return fetch(cfg.frame_url + "?step=" + steps + "&view=" + encodeURIComponent(cfg.view) + "&lang=" + cfg.lang)
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (f) { if (f) show(f.step, f.html, f.caption); });
      })
      .catch(function () {});
  }
  kifuFollow(cfg.stream_url, poll, cfg.poll_ms || 1000);
})();
