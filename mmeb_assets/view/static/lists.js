/* Question lists: a slice (a leaderboard cell's questions, with filters and search), the comparison of
   two runs on the same questions, and question health. */
"use strict";
(function () {
  var C = {id: 0, project: 1, task: 2, modality: 3, evidence: 4, images: 5, generator: 6, q: 7, status: 8, ev: 9};
  var SHOWN = 300;

  function options(values, chosen, label) {
    return [el("option", {value: "", text: label})].concat(values.map(function (v) {
      return el("option", {value: v, selected: v === chosen ? "selected" : null, text: v});
    }));
  }
  function distinct(rows, col) {
    var seen = new Set(); rows.forEach(function (r) { seen.add(String(r[col])); });
    return Array.from(seen).sort();
  }
  function imagesBucket(n) { return n >= 2 ? "2+" : String(n); }

  /* Rows of the slice a cell names: the run's answered questions of that task / evidence class. */
  function baseRows(rows, params, verdicts) {
    return rows.map(function (row, i) { return i; }).filter(function (i) {
      var row = rows[i];
      if (verdicts && verdicts.v[i] === ".") return false;
      if (params.task && row[C.task] !== params.task) return false;
      if (params.ev && row[C.ev] !== params.ev) return false;
      if (params.generator && row[C.generator] !== params.generator) return false;
      return true;
    });
  }

  function matches(row, verdict, f) {
    if (f.f_task && row[C.task] !== f.f_task) return false;
    if (f.f_modality && row[C.modality] !== f.f_modality) return false;
    if (f.f_images && imagesBucket(row[C.images]) !== f.f_images) return false;
    if (f.f_project && row[C.project] !== f.f_project) return false;
    if (f.f_verdict && verdictMark(verdict) !== f.f_verdict) return false;
    if (f.s) {
      var needle = f.s.toLowerCase();
      if ((row[C.q] + " " + row[C.id]).toLowerCase().indexOf(needle) < 0) return false;
    }
    return true;
  }

  function questionRow(row, extra) {
    return el("tr", {}, el("td", {}, qLink(row[C.id])), el("td", {text: row[C.task]}), el("td", {text: row[C.project]}),
      el("td", {text: row[C.modality]}), el("td", {class: "num", text: row[C.images]}), extra,
      el("td", {class: "qtext", text: row[C.q]}));
  }

  function listTable(heads, rows) {
    return el("table", {class: "list"}, el("thead", {}, el("tr", {}, heads.map(function (h) { return el("th", {text: h}); }))),
      el("tbody", {}, rows));
  }

  MMEB.routes.slice = function (page, where) {
    var p = where.params, board = MMEB.board();
    var run = p.run ? MMEB.runByKey(p.run) : null;
    return Promise.all([MMEB.loadIndex(), run ? MMEB.loadRun(run) : null]).then(function (got) {
      var rows = got[0].rows, verdicts = got[1];
      var base = baseRows(rows, p, verdicts);
      var title = [run ? run.model + " at k=" + run.k : "All questions", p.task ? "task " + p.task : "",
        p.ev ? "evidence " + p.ev : "", p.retriever ? "retriever " + p.retriever : "",
        p.generator ? "generator " + p.generator : ""].filter(Boolean).join(" · ");
      var right = verdicts ? base.filter(function (i) { return verdicts.v[i] === "1"; }).length : null;
      var summary = el("p", {class: "lede", id: "slice-summary"}, base.length + " questions" +
        (right === null ? "" : " · " + right + " right (" + pct(base.length ? 100 * right / base.length : 0) + "%)") +
        (p.retriever && run && run.retriever !== p.retriever ? " · this run answered with " + run.retriever : ""));
      var filters = {f_task: p.f_task || "", f_modality: p.f_modality || "", f_images: p.f_images || "",
        f_verdict: p.f_verdict || "", f_project: p.f_project || "", s: p.s || ""};
      var tbody = el("tbody"), count = el("p", {class: "count", role: "status"});
      function refresh(limit) {
        var shown = base.filter(function (i) { return matches(rows[i], verdicts ? verdicts.v[i] : "", filters); });
        var out = shown.slice(0, limit || SHOWN).map(function (i) {
          var extra = verdicts ? [el("td", {class: "verdict " + verdictMark(verdicts.v[i]), text: verdictMark(verdicts.v[i])}),
            el("td", {class: "code", text: verdicts.codes[i]})] : [];
          return questionRow(rows[i], extra);
        });
        tbody.replaceChildren.apply(tbody, out);
        count.replaceChildren(); fill(count, shown.length + " shown" + (shown.length > out.length ? " (first " + out.length + ")" : ""),
          shown.length > out.length ? el("button", {type: "button", text: "show all", onclick: function () { refresh(shown.length); }}) : null);
        var params = Object.assign({}, p, filters);
        history.replaceState(null, "", route("slice", params));
      }
      function control(name, node) {
        node.addEventListener(node.tagName === "INPUT" ? "input" : "change", function () { filters[name] = node.value; refresh(); });
        return el("label", {}, node);
      }
      var controls = el("div", {class: "filters"},
        control("f_task", el("select", {"aria-label": "task"}, options(board.tasks, filters.f_task, "any task"))),
        control("f_modality", el("select", {"aria-label": "modality"}, options(["text", "visual", "text+visual", "none"], filters.f_modality, "any modality"))),
        control("f_images", el("select", {"aria-label": "images"}, options(["0", "1", "2+"], filters.f_images, "any number of images"))),
        verdicts ? control("f_verdict", el("select", {"aria-label": "verdict"}, options(["right", "wrong"], filters.f_verdict, "any verdict"))) : null,
        control("f_project", el("select", {"aria-label": "project"}, options(distinct(rows, C.project), filters.f_project, "any project"))),
        control("s", el("input", {type: "search", placeholder: "search question text", "aria-label": "search", value: filters.s})));
      var heads = ["question", "task", "project", "modality", "images"].concat(verdicts ? ["verdict", "reason code"] : []).concat(["text"]);
      fill(page, el("h1", {text: title}), summary, controls, count,
        el("table", {class: "list", id: "slice"}, el("thead", {}, el("tr", {}, heads.map(function (h) { return el("th", {text: h}); }))), tbody));
      refresh();
    });
  };

  function pairLine(board, pairs, a, b) {
    var hit = pairs[a.key + "|" + b.key], flip = false;
    if (!hit) { hit = pairs[b.key + "|" + a.key]; flip = true; }
    if (!hit) return el("p", {class: "lede", text: "No paired test for these two runs (the report compares two models at one k, or one model at two k)."});
    var diff = flip ? -hit[0] : hit[0], low = flip ? -hit[2] : hit[1], high = flip ? -hit[1] : hit[2];
    var significant = hit[3] && (low > 0 || high < 0);
    return el("p", {class: "lede", id: "paired"}, "Paired bootstrap (as the report): " + a.key + " − " + b.key + " = " +
      (diff > 0 ? "+" : "") + diff.toFixed(1) + " points, 95% [" + low.toFixed(1) + ", " + high.toFixed(1) + "], over " +
      hit[3] + " shared questions: " + (significant ? "significant" : "not significant") + ".");
  }

  MMEB.routes.compare = function (page, where) {
    var board = MMEB.board(), p = where.params, runs = board.runs;
    var a = MMEB.runByKey(p.a) || runs[0], b = MMEB.runByKey(p.b) || runs[1] || runs[0];
    function picker(name, chosen) {
      var node = el("select", {"aria-label": "run " + name}, runs.map(function (r) {
        return el("option", {value: r.key, selected: r.key === chosen.key ? "selected" : null, text: r.key});
      }));
      node.addEventListener("change", function () {
        var next = Object.assign({}, p, {a: a.key, b: b.key}); next[name] = node.value;
        location.hash = route("compare", next);
      });
      return el("label", {}, name.toUpperCase() + " ", node);
    }
    if (!a) { fill(page, el("h1", {text: "Compare"}), el("p", {text: "No runs in this build."})); return; }
    return Promise.all([MMEB.loadIndex(), MMEB.loadRun(a), MMEB.loadRun(b), MMEB.load("pairs", "data/pairs.js")]).then(function (got) {
      var rows = got[0].rows, va = got[1].v, vb = got[2].v, only = p.differ === "1";
      var shared = rows.map(function (r, i) { return i; }).filter(function (i) { return va[i] !== "." && vb[i] !== "."; });
      var differ = shared.filter(function (i) { return va[i] !== vb[i]; });
      var shown = only ? differ : shared;
      var box = el("input", {type: "checkbox", id: "differ", checked: only ? "checked" : null});
      box.addEventListener("change", function () { location.hash = route("compare", {a: a.key, b: b.key, differ: box.checked ? "1" : ""}); });
      fill(page, el("h1", {text: "Compare " + a.key + " and " + b.key}),
        el("div", {class: "filters"}, picker("a", a), picker("b", b), el("label", {}, box, " only where they differ")),
        pairLine(board, got[3], a, b),
        el("p", {class: "count", text: shared.length + " questions both answered; they differ on " + differ.length + "."}),
        listTable(["question", "task", "project", "modality", "images", a.key, b.key, "text"], shown.slice(0, 2000).map(function (i) {
          return questionRow(rows[i], [el("td", {class: "verdict " + verdictMark(va[i]), text: verdictMark(va[i])}),
            el("td", {class: "verdict " + verdictMark(vb[i]), text: verdictMark(vb[i])})]);
        })));
    });
  };

  function healthList(title, id, rows, entries, note, extra) {
    return [section(title + " (" + entries.length + ")", id), el("p", {class: "note", text: note}),
      listTable(["question", "generator", "gold evidence records", "why", "text"], entries.map(function (e) {
        var row = rows[e.i];
        return el("tr", {}, el("td", {}, qLink(row[C.id])),
          el("td", {}, el("a", {href: route("slice", {generator: row[C.generator]}), text: row[C.generator]})),
          el("td", {}, el("a", {href: "#/q/" + encodeURIComponent(row[C.id]) + "?focus=evidence", text: row[C.evidence] + " record(s)"})),
          el("td", {text: extra(e)}), el("td", {class: "qtext", text: row[C.q]}));
      }))];
  }

  MMEB.routes.health = function (page) {
    var h = MMEB.board().health;
    return MMEB.loadIndex().then(function (index) {
      var rows = index.rows;
      fill(page, el("h1", {text: "Question health"}),
        healthList("Every model misses", "missed", rows, h.missed, "Every model run that answered it (diagnostic readers left out) was judged wrong.",
          function (e) { return e.runs + " run(s) wrong"; }),
        healthList("A diagnostic reader beats every model", "beaten", rows, h.beaten,
          "A reader that uses no model (latest / first mention, or the gold-evidence oracle) gets it; no model does.",
          function (e) { return e.readers.join(", "); }),
        healthList("The judge rejects the gold", "rejected", rows, h.rejected,
          "The rules judge, given the question's own gold answer, says wrong: the question or the judge needs a look.",
          function (e) { return e.reason; }));
    });
  };
})();
