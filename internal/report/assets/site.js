// smtarena's site script: sortable and filterable tables, the scatter
// plot's solver pair, and (when served live) progress without a reload.
// The pages read without it.
"use strict";
(function () {
  function cellValue(row, i, num) {
    var c = row.cells[i];
    var t = c ? c.textContent.trim() : "";
    if (!num) return t.toLowerCase();
    var v = parseFloat(t);
    return isNaN(v) ? -Infinity : v;
  }
  function makeSortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, i) {
      th.addEventListener("click", function () {
        var num = th.dataset.type === "num";
        var asc = !th.classList.contains("asc");
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove("asc", "desc"); });
        th.classList.add(asc ? "asc" : "desc");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, i, num), y = cellValue(b, i, num);
          var c = x < y ? -1 : x > y ? 1 : 0;
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  function makeFilter(input) {
    var table = document.getElementById(input.dataset.filter);
    if (!table) return;
    input.addEventListener("input", function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.hidden = q !== "" && r.textContent.toLowerCase().indexOf(q) < 0;
      });
    });
  }
  // init makes the tables and the scatter plot's list work (again, after
  // a live update replaced the page's content).
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
    Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), makeFilter);
    var sel = document.getElementById("scatter-select");
    var img = document.getElementById("scatter-img");
    if (sel && img) sel.addEventListener("change", function () { img.src = sel.value; });
  }
  // refresh replaces the page's content with the server's latest build:
  // the scores so far, without a reload.
  function refresh() {
    return fetch(location.href, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.text();
    }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.querySelector("main"), old = document.querySelector("main");
      if (fresh && old) {
        old.replaceWith(document.adoptNode(fresh));
        init();
      }
    });
  }
  function live() {
    var root = document.body.dataset.root || "";
    var status = document.getElementById("live-status");
    var token = new URLSearchParams(location.search).get("token");
    var url = root + "api/progress.json" + (token ? "?token=" + encodeURIComponent(token) : "");
    var built = null;
    function update() {
      fetch(url, { cache: "no-store" }).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      }).then(function (data) {
        var table = document.getElementById("progress-table");
        var list = document.getElementById("latest");
        (data.progress || []).forEach(function (g) {
          var key = g.track + "/" + g.division;
          var row = null;
          if (table) {
            Array.prototype.forEach.call(table.tBodies[0].rows, function (r) { if (r.dataset.key === key) row = r; });
            if (!row) {
              row = table.tBodies[0].insertRow();
              row.dataset.key = key;
              [g.track, g.division || "(all)"].forEach(function (t) { row.insertCell().textContent = t; });
              ["done", "planned", "running", "errors", "wrong", "eta"].forEach(function (f) {
                var c = row.insertCell(); c.dataset.f = f; if (f !== "eta") c.className = "n";
              });
            }
            Array.prototype.forEach.call(row.cells, function (c) {
              var f = c.dataset.f;
              if (!f) return;
              if (f === "eta") c.textContent = g.eta < 0 ? "-" : g.eta === 0 ? "done" : Math.round(g.eta) + " s";
              else c.textContent = String(g[f]);
            });
          }
        });
        if (list && data.latest) {
          list.textContent = "";
          data.latest.forEach(function (l) {
            var li = document.createElement("li");
            li.textContent = l.track + " " + l.division + ": " + l.solver + " on " + l.benchmark + ": " + l.status + " " + l.answer + " (" + l.wall.toFixed(2) + " s)";
            list.appendChild(li);
          });
        }
        if (built !== null && data.built !== built) {
          built = data.built;
          return refresh().then(function () { update(); });
        }
        built = data.built;
        status = document.getElementById("live-status");
        if (status) status.textContent = "Last update " + new Date().toLocaleTimeString() + ", " + data.results + " results in the scores.";
      }).catch(function (e) {
        status = document.getElementById("live-status");
        if (status) status.textContent = "Update failed: " + e.message;
      });
    }
    update();
    setInterval(update, 2000);
  }
  // A link to a pair opens its details.
  function openTarget() {
    var id = location.hash.slice(1);
    var el = id && document.getElementById(id);
    var d = el && el.querySelector("details");
    if (d) { d.open = true; el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", function () {
    openTarget();
    init();
    if (document.body.dataset.live) live();
  });
})();
