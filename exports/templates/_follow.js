/* Live follow on the server's pages (match page, overlay, desk, recording page): subscribe to
   the server's stream of new lines (server-sent events; the browser's EventSource reconnects
   by itself from the last event id) and call `news` on each, one call at a time. When the
   stream cannot be held (an error before the server said "ready", or no "ready" within 10 s:
   a proxy that buffers), fall back to calling `news` every `pollMs`, as before streams.
   `wanted` (optional) says which messages matter (given the message's data, decoded): a page
   that follows an event but shows one table need not refetch on every line of every match. */
function kifuFollow(streamUrl, news, pollMs, wanted) {
  "use strict";
  var busy = false, again = false, polling = false;
  function run() {
    if (busy) { again = true; return Promise.resolve(); }
    busy = true;
    return Promise.resolve().then(news).catch(function () {}).then(function () {
      busy = false;
      if (again) { again = false; return run(); }
    });
  }
  function mark(how) { document.documentElement.setAttribute("data-follow", how); }
  function poll() {
    if (!polling) mark("poll");
    polling = true;
    run().then(function () { setTimeout(poll, pollMs); });
  }
  if (!streamUrl || !window.EventSource) { setTimeout(poll, pollMs); return; }
  var es = new EventSource(streamUrl), held = false;
  var giveUp = setTimeout(function () { if (!held) { es.close(); if (!polling) poll(); } }, 10000);
  es.addEventListener("ready", function () { held = true; clearTimeout(giveUp); mark("stream"); run(); });
  es.onmessage = function (e) {
    if (wanted) { try { if (!wanted(JSON.parse(e.data))) return; } catch (err) { /* not JSON: refresh */ } }
    run();
  };
  es.onerror = function () { if (!held) { clearTimeout(giveUp); es.close(); if (!polling) poll(); } };
}
