
"use strict";
(function () {
  // Marks the page as scripted: tests check that this script, and no other, ran.
  document.documentElement.setAttribute("data-report-script", "ran");
  var controls = document.getElementById("controls");
  if (!controls) return;
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  var boxes = Array.prototype.slice.call(controls.querySelectorAll("input[type=checkbox]"));
  var items = Array.prototype.slice.call(document.querySelectorAll(".card[data-name], .lane[data-name]"));
  var cards = items.filter(function (item) { return item.classList.contains("card"); });
  function apply() {
    var query = search.value.trim().toLowerCase();
    var wanted = {};
    boxes.forEach(function (box) { wanted[box.value] = box.checked; });
    var visible = 0;
    items.forEach(function (item) {
      var severity = item.getAttribute("data-severity");
      var ok = wanted[severity] !== false && item.getAttribute("data-name").toLowerCase().indexOf(query) >= 0;
      item.classList.toggle("filtered-out", !ok);
      if (ok && item.classList.contains("card")) visible += 1;
    });
    shown.textContent = visible + " of " + cards.length + " errors shown";
  }
  search.addEventListener("input", apply);
  boxes.forEach(function (box) { box.addEventListener("change", apply); });
  controls.hidden = false;
  apply();
})();
