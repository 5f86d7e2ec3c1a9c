// Live progress of a run page: follows the run's Server-Sent Events and moves the bar.
// The page is complete without this script; it only saves a reload while a run is going.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var bar = document.getElementById("live-bar");
  var count = document.getElementById("live-count");
  var status = document.getElementById("live-status");
  var stage = document.getElementById("live-stage");
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
  });
  source.addEventListener("end", function () {
    source.close();
    window.location.reload();
  });
})();
