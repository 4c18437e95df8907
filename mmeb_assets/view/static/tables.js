/* The leaderboard: Tables 5-7 with their 95% intervals; every cell links to its slice of questions. */
"use strict";
(function () {
  var GROUP_ORDER = ["submitted", "proprietary", "open-source", "offline", "other", "diagnostic"];

  function sortedRuns(board) {
    return board.runs.slice().sort(function (a, b) {
      return (a.k - b.k) || (GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group)) ||
        (a.model < b.model ? -1 : a.model > b.model ? 1 : 0);
    });
  }

  function cellIndex(board) {
    var index = new Map();
    board.cells.forEach(function (c) { index.set(c.t + "|" + c.m + "|" + c.k + "|" + c.c, c); });
    return index;
  }

  function cellLink(cell, table, run, column, params) {
    if (!cell || !cell.n) return el("td", {class: "empty", text: "–"});
    var title = cell.ok + " of " + cell.n + " right; 95% " + (cell.iv === "wilson" ? "Wilson" : "bootstrap") +
      " interval " + pct(cell.lo) + "–" + pct(cell.hi) + (cell.vs === "best" ? "; best of the column" :
      cell.vs === "ns" ? "; not significantly below the best" : "");
    var link = el("a", {href: route("slice", Object.assign({run: run.key}, params)), class: "cell " + (cell.vs || ""),
      title: title, "data-table": table, "data-model": run.model, "data-k": run.k, "data-column": column},
      el("span", {class: "acc", text: pct(cell.acc)}),
      el("span", {class: "ci", text: pct(cell.lo) + "–" + pct(cell.hi)}),
      cell.vs === "ns" ? el("span", {class: "ns", text: "≈"}) : null);
    return el("td", {}, link);
  }

  function runLabel(run) {
    return el("th", {scope: "row"}, run.model, run.sampled ? el("span", {class: "tag", text: "sampled"}) : null,
      run.submitted ? el("span", {class: "tag own", text: "submitted"}) : null,
      run.diagnostic ? el("span", {class: "tag diag", text: "diagnostic"}) : null);
  }

  function table(board, index, name, columns, labels, paramOf, counts) {
    var head = el("tr", {}, el("th", {text: "Model"}), el("th", {text: "k"}),
      columns.map(function (c) { return el("th", {scope: "col", text: labels[c] || c}); }));
    var body = sortedRuns(board).filter(function (run) {
      return columns.some(function (c) { return index.has(name + "|" + run.model + "|" + run.k + "|" + c); });
    }).map(function (run) {
      return el("tr", {}, runLabel(run), el("td", {class: "k", text: run.k || "own"}),
        columns.map(function (c) { return cellLink(index.get(name + "|" + run.model + "|" + run.k + "|" + c), name, run, c, paramOf(c)); }));
    });
    var foot = counts ? el("tr", {class: "counts"}, el("th", {text: "# questions"}), el("td"),
      columns.map(function (c) { return el("td", {text: counts[c] === undefined ? "" : counts[c]}); })) : null;
    return el("table", {class: "board", id: name}, el("thead", {}, head), el("tbody", {}, body, foot));
  }

  function table7(board, index) {
    var cols = [];
    board.cells.forEach(function (c) { if (c.t === "table7" && cols.indexOf(c.r) < 0) cols.push(c.r); });
    var head = el("tr", {}, el("th", {text: "Model"}), el("th", {text: "k"}),
      cols.map(function (r) { return el("th", {scope: "col", text: "accuracy with " + r}); }));
    var rows = sortedRuns(board).map(function (run) {
      var cells = cols.map(function (r) {
        var hit = board.cells.find(function (c) { return c.t === "table7" && c.m === run.model && c.k === run.k && c.r === r; });
        return cellLink(hit, "table7", run, r + "@" + run.k, {retriever: r});
      });
      return el("tr", {}, runLabel(run), el("td", {class: "k", text: run.k || "own"}), cells);
    });
    var metrics = Object.keys(board.metric_labels);
    var retrievers = Object.keys(board.retrieval || {});
    var rtable = el("table", {class: "board", id: "retrievers"},
      el("thead", {}, el("tr", {}, el("th", {text: "Retriever"}),
        metrics.map(function (m) { return el("th", {text: board.metric_labels[m] + " (%)"}); }))),
      el("tbody", {}, retrievers.map(function (r) {
        return el("tr", {}, el("th", {scope: "row"}, el("a", {href: route("slice", {retriever: r}), text: r})),
          metrics.map(function (m) { return el("td", {text: pct(board.retrieval[r][m])}); }));
      })));
    return [el("table", {class: "board", id: "table7"}, el("thead", {}, head), el("tbody", {}, rows)), rtable];
  }

  MMEB.routes[""] = function (page) {
    var board = MMEB.board();
    var index = cellIndex(board);
    var t5cols = board.tasks.concat(["overall"]);
    fill(page, el("h1", {text: "Leaderboard"}),
      el("p", {class: "lede"}, board.n_questions + " questions · " + board.runs.length + " model × k runs · generated " +
        board.generated + ". Cells: accuracy % and its 95% interval; click a cell for its questions."),
      section("Table 5 — accuracy by task"),
      table(board, index, "table5", t5cols, board.task_labels, function (c) { return c === "overall" ? {} : {task: c}; }, board.counts),
      section("Table 6 — accuracy by gold evidence modality and size (answerable questions)"),
      table(board, index, "table6", board.t6_columns, board.t6_labels, function (c) { return {ev: c}; }, board.counts),
      section("Table 7 — accuracy per retriever, and the retrievers' ranking metrics"),
      table7(board, index),
      section("Notes"), el("ul", {class: "notes"}, board.notes.map(function (n) { return el("li", {text: n}); })));
  };
})();
