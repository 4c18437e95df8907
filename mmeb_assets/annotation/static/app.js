// MMEB annotation app: filter the source browser as the annotator types; judge with the keyboard;
// keep unsaved choices. No dependencies.
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

// Judging with the keyboard, and nothing typed lost: choices are kept as a draft in this browser until
// saved (a reload, a crash, or a save refused because the item changed meanwhile brings them back), and
// leaving the item with unsaved choices asks first.
(function () {
  "use strict";
  var form = document.getElementById("assessment");
  if (!form) { return; }
  var key = "mmeb-draft:" + location.pathname;
  var status = document.getElementById("draft-status");
  var saved = JSON.stringify(state());
  var submitting = false;

  function state() {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.type === "radio" && el.checked) { out[el.name] = el.value; }
      if (el.name === "comment") { out.comment = el.value; }
    });
    return out;
  }
  function apply(values) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.type === "radio") { el.checked = values[el.name] === el.value; }
      if (el.name === "comment") { el.value = values.comment || ""; }
    });
  }
  function dirty() { return JSON.stringify(state()) !== saved; }
  function remember() {
    try {
      if (dirty()) { localStorage.setItem(key, JSON.stringify(state())); } else { localStorage.removeItem(key); }
    } catch (e) { /* storage full or disabled: the warning on leaving still guards */ }
  }
  function say(text) { if (status) { status.hidden = !text; status.textContent = text; } }

  try {
    var draft = localStorage.getItem(key);
    if (draft && draft !== saved) {
      apply(JSON.parse(draft));
      say("Your unsaved choices were restored (the saved judgment, if any, is shown above). Save to keep them.");
    }
  } catch (e) { /* an unreadable draft is ignored */ }

  form.addEventListener("change", remember);
  form.addEventListener("input", remember);
  form.addEventListener("submit", function () { submitting = true; });
  window.addEventListener("pageshow", function () { submitting = false; });
  window.addEventListener("beforeunload", function (event) {
    if (!submitting && dirty()) { event.preventDefault(); event.returnValue = ""; }
  });
  var clear = document.getElementById("clear");
  if (clear) {
    clear.addEventListener("click", function () { apply({}); remember(); say("Cleared: nothing is chosen."); });
  }
  // a saved form clears its draft once the server accepted it (the next page loads without it)
  if (document.getElementById("saved-status") && !dirty()) {
    try { localStorage.removeItem(key); } catch (e) { /* nothing to clear */ }
  }

  function follow(id) { var link = document.getElementById(id); if (link) { location.href = link.href; } }
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) {
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") { event.preventDefault(); form.requestSubmit(); }
      return;
    }
    if (target && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type !== "radio"))) {
      if (event.key === "Escape") { target.blur(); }
      return;
    }
    var choice = form.querySelector("input[type=radio][data-key='" + event.key + "']");
    if (choice) { choice.checked = true; remember(); event.preventDefault(); return; }
    if (event.key === "s") { event.preventDefault(); form.requestSubmit(); }
    else if (event.key === "n" || event.key === "k") { follow("next"); }
    else if (event.key === "p") { follow("prev"); }
    else if (event.key === "c" && clear) { clear.click(); }
  });
})();

// The item list, filtered by status and task.
(function () {
  "use strict";
  var list = document.getElementById("item-list");
  var status = document.getElementById("filter-status");
  var task = document.getElementById("filter-task");
  var count = document.getElementById("list-count");
  if (!list || !status || !task) { return; }
  var rows = Array.prototype.slice.call(list.querySelectorAll("li"));
  function apply() {
    var shown = 0;
    rows.forEach(function (li) {
      var keep = (!status.value || li.getAttribute("data-status") === status.value) &&
                 (!task.value || li.getAttribute("data-task") === task.value);
      li.hidden = !keep;
      if (keep) { shown += 1; }
    });
    if (count) { count.textContent = shown + " of " + rows.length + " items"; }
  }
  status.addEventListener("change", apply);
  task.addEventListener("change", apply);
  apply();
})();
