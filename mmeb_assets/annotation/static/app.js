// MMEB annotation app: filter the source browser as the annotator types. No dependencies.
(function () {
  "use strict";
  var input = document.getElementById("source-search");
  var list = document.getElementById("source-list");
  var count = document.getElementById("source-count");
  if (!input || !list) { return; }
  var entries = Array.prototype.slice.call(list.querySelectorAll("li.source"));

  function apply() {
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    entries.forEach(function (li) {
      var text = li.getAttribute("data-search") || "";
      var match = terms.every(function (t) { return text.indexOf(t) !== -1; });
      li.hidden = !match;
      li.classList.toggle("match", match && terms.length > 0);
      if (match) { shown += 1; }
    });
    if (count) {
      count.textContent = shown + " of " + entries.length + " records";
    }
  }

  input.addEventListener("input", apply);
  apply();

  // Clicking a cited card's record id brings its entry in the source browser into view.
  Array.prototype.forEach.call(document.querySelectorAll("details.card"), function (card) {
    card.addEventListener("toggle", function () {
      if (!card.open) { return; }
      var id = card.getAttribute("data-record");
      entries.forEach(function (li) {
        li.classList.toggle("focus", li.getAttribute("data-record") === id);
      });
    });
  });
})();
