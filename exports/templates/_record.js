/* The recording page: one form per move type of the match's ruleset; the answer says at
   once whether the move broke a rule. Field values are read as JSON where they parse. */
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("rec-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var typeSel = $("rec-type"), box = $("rec-fields"), out = $("rec-result"), tok = $("rec-token");
  try { tok.value = localStorage.getItem("kifu-token") || ""; } catch (e) {}
  function spec() { return cfg.types.filter(function (t) { return t.type === typeSel.value; })[0]; }
  function fields() {
    box.textContent = "";
    (spec() ? spec().fields : []).forEach(function (f) {
      var label = document.createElement("label");
      label.textContent = f.name + (f.required ? " *" : "") + " — " + f.help;
      var input = document.createElement("input");
      input.name = f.name; input.setAttribute("data-field", f.name);
      if (f.required) input.required = true;
      label.appendChild(input); box.appendChild(label);
    });
  }
  function value(text) { try { return JSON.parse(text); } catch (e) { return text; } }
  function say(cls, lines) {
    out.className = cls; out.textContent = "";
    lines.forEach(function (l) { var d = document.createElement("div"); d.textContent = l; out.appendChild(d); });
  }
  typeSel.onchange = fields;
  fields();
  $("rec-form").onsubmit = function (e) {
    e.preventDefault();
    var move = {type: typeSel.value, by: $("rec-by").value};
    box.querySelectorAll("input[data-field]").forEach(function (i) {
      if (i.value.trim() !== "") move[i.getAttribute("data-field")] = value(i.value.trim());
    });
    try { localStorage.setItem("kifu-token", tok.value); } catch (e2) {}
    say("", ["sending…"]);
    fetch(cfg.post_url, {method: "POST", headers: {"Content-Type": "application/json",
      "Authorization": "Bearer " + tok.value}, body: JSON.stringify(move)})
      .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
      .then(function (res) {
        var status = res[0], j = res[1];
        if (status === 201) {
          $("rec-steps").textContent = String(j.seq);
          if (!j.violations.length) say("ok", ["✓ recorded seq " + j.seq + " — legal"]);
          else say("bad", ["✗ recorded seq " + j.seq + " — breaks a rule:"].concat(
            j.violations.map(function (v) { return v.rule + ": " + v.message; })));
        } else {
          say("bad", ["not recorded (" + status + "): " + (j.error || "")].concat(j.problems ? j.problems.slice(1) : []));
        }
      })
      .catch(function (err) { say("bad", ["not recorded: " + err]); });
  };
})();
