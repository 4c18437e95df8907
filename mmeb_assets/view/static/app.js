/* MMEB results browser: data loading, safe DOM helpers, the hash router.
   Every piece of data reaches the page through textContent / createTextNode, never as markup. */
"use strict";
var MMEB = window.MMEB = {store: {}, waiting: {}, routes: {}, index: null};

MMEB.put = function (key, value) {
  MMEB.store[key] = value;
  var waiting = MMEB.waiting[key] || [];
  delete MMEB.waiting[key];
  waiting.forEach(function (resolve) { resolve(value); });
};

/* Load a data file by <script> tag (fetch() of file:// is blocked); resolves with its payload. */
MMEB.load = function (key, src) {
  return new Promise(function (resolve, reject) {
    if (Object.prototype.hasOwnProperty.call(MMEB.store, key)) { resolve(MMEB.store[key]); return; }
    (MMEB.waiting[key] = MMEB.waiting[key] || []).push(resolve);
    if (document.querySelector('script[data-key="' + CSS.escape(key) + '"]')) return;
    var tag = document.createElement("script");
    tag.src = src;
    tag.setAttribute("data-key", key);
    tag.onerror = function () { reject(new Error("could not load " + src)); };
    document.head.appendChild(tag);
  });
};

MMEB.board = function () { return MMEB.store.board; };

/* The question index: rows of board.index_columns, plus id -> position. */
MMEB.loadIndex = function () {
  return MMEB.load("index", "data/index.js").then(function (rows) {
    if (!MMEB.index) {
      var pos = new Map();
      rows.forEach(function (row, i) { pos.set(row[0], i); });
      MMEB.index = {rows: rows, pos: pos};
    }
    return MMEB.index;
  });
};

MMEB.runByKey = function (key) {
  return MMEB.board().runs.find(function (run) { return run.key === key; }) || null;
};

MMEB.loadRun = function (run) {
  var number = run.file.replace(/^.*\/(\d+)\.js$/, "$1");
  return MMEB.load("run:" + number, run.file);
};

/* el("a", {href: "#/q/x", class: "c"}, "text", child): attributes via setAttribute, strings as text nodes. */
function el(tag, attrs) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (name) {
    var value = attrs[name];
    if (value === null || value === undefined || value === false) return;
    if (name === "text") node.textContent = String(value);
    else if (name === "href") node.setAttribute("href", safeHref(value));
    else if (name === "src") node.setAttribute("src", safeSrc(value));
    else if (name.slice(0, 2) === "on") node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, String(value));
  });
  for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
  return node;
}

/* Append children: strings as text nodes, arrays flattened, null / false skipped. */
function fill(node) {
  for (var i = 1; i < arguments.length; i++) append(node, arguments[i]);
  return node;
}

function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
  node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
}

/* Only the site's own routes are linked; anything else (javascript:, data:, http:) becomes inert. */
function safeHref(value) { value = String(value); return /^#\//.test(value) ? value : "#/"; }
/* Images come from the site's media folder only. */
function safeSrc(value) { value = String(value); return /^media\/[^:?#]*$/.test(value) ? value : ""; }

function route(path, params) {
  var query = Object.keys(params || {}).filter(function (k) { return params[k] !== "" && params[k] !== undefined; })
    .map(function (k) { return encodeURIComponent(k) + "=" + encodeURIComponent(params[k]); }).join("&");
  return "#/" + path + (query ? "?" + query : "");
}
function qLink(id, text) { return el("a", {href: "#/q/" + encodeURIComponent(id), class: "qid"}, text || id); }
function pct(x) { return x === null || x === undefined ? "–" : Number(x).toFixed(1); }
function verdictMark(ch) { return ch === "1" ? "right" : ch === "0" ? "wrong" : "—"; }
function section(title, id) { return el("section", {id: id || null}, el("h2", {text: title})); }

function parseHash() {
  var hash = location.hash.replace(/^#\/?/, "");
  var cut = hash.indexOf("?");
  var path = cut < 0 ? hash : hash.slice(0, cut);
  var params = {};
  new URLSearchParams(cut < 0 ? "" : hash.slice(cut + 1)).forEach(function (v, k) { params[k] = v; });
  var parts = path.split("/").map(function (p) { try { return decodeURIComponent(p); } catch (e) { return p; } });
  return {name: parts[0] || "", rest: parts.slice(1), params: params};
}

MMEB.setStatus = function (text) { document.getElementById("status").textContent = text || ""; };

MMEB.render = function () {
  var where = parseHash();
  var view = MMEB.routes[where.name] || MMEB.routes[""];
  var app = document.getElementById("app");
  var page = el("div", {class: "page"});
  MMEB.setStatus("");
  Promise.resolve(view(page, where)).then(function () {
    app.replaceChildren(page);
    var heading = page.querySelector("h1");
    if (heading && MMEB.rendered) { heading.setAttribute("tabindex", "-1"); heading.focus({preventScroll: true}); }
    MMEB.rendered = true;
    window.scrollTo(0, 0);
    document.body.setAttribute("data-view", where.name || "leaderboard");
    requestAnimationFrame(function () {  /* the bench reads when the view was painted */
      MMEB.paintedAt = performance.now();
      document.body.setAttribute("data-painted", where.name || "leaderboard");
    });
  }).catch(function (error) {
    app.replaceChildren(el("p", {class: "error", text: "Could not show this view: " + error.message}));
  });
};

window.addEventListener("hashchange", MMEB.render);
document.addEventListener("DOMContentLoaded", function () {
  if (!MMEB.board()) {
    document.getElementById("app").replaceChildren(el("p", {class: "error", text: "data/board.js is missing: "
      + "regenerate the site with `mmeb view`."}));
    return;
  }
  MMEB.render();
});
