// Live progress of a run page: follows the run's Server-Sent Events, moves the bar and, when
// the count of cases changes, refreshes the table of cases recorded so far (provisional
// scores) from the page's provisional.json. Text only: every value goes in by textContent.
// The page is complete without this script; it only saves a reload while a run is going.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var bar = document.getElementById("live-bar");
  var count = document.getElementById("live-count");
  var status = document.getElementById("live-status");
  var stage = document.getElementById("live-stage");
  var table = document.getElementById("provisional");
  var wanted = -1, asked = -1, busy = false;

  function cell(row, text, kind) {
    var td = document.createElement("td");
    if (kind === "code") {
      var code = document.createElement("code");
      code.textContent = text;
      td.appendChild(code);
    } else {
      td.textContent = text;
      if (kind) { td.className = kind; }
    }
    row.appendChild(td);
  }

  function fill(data) {
    var body = document.querySelector("#provisional-table tbody");
    var rows = document.createDocumentFragment();
    (data.cases || []).forEach(function (c) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-passed", c.passed ? "yes" : "no");
      cell(tr, String(c.case_id), "code");
      cell(tr, String(c.kind));
      cell(tr, String(c.category));
      cell(tr, String(c.score), "num");
      cell(tr, String(c.outcome), c.passed ? "ok" : "bad");
      rows.appendChild(tr);
    });
    body.replaceChildren(rows);
    document.getElementById("provisional-count").textContent = String((data.cases || []).length);
  }

  function refresh() {
    if (!table || busy || wanted === asked) { return; }
    busy = true;
    asked = wanted;
    fetch(table.getAttribute("data-source"), { credentials: "same-origin" })
      .then(function (reply) { return reply.ok ? reply.json() : null; })
      .then(function (data) { if (data) { fill(data); } })
      .catch(function () { /* the next change asks again */ })
      .then(function () { busy = false; refresh(); });
  }

  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("progress", function (event) {
    var data = JSON.parse(event.data);
    var p = data.progress || {};
    var total = p.total || 0;
    var done = p.done || 0;
    bar.max = Math.max(total, 1);
    bar.value = done;
    bar.textContent = done + " / " + total;
    count.textContent = done + " / " + total;
    status.textContent = data.status;
    stage.textContent = p.stage || "";
    wanted = done;
    refresh();
  });
  source.addEventListener("end", function () {
    source.close();
    window.location.reload();
  });
})();
