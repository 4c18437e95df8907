/* One question: gold, gold evidence as it is, every answer and verdict, retrievals, seed page, lineage. */
"use strict";
(function () {
  function fileOf(number) { return "data/q/" + Math.floor(number / 500) + "/" + number + ".js"; }

  function dl(pairs) {
    return el("dl", {class: "facts"}, pairs.filter(function (p) { return p[1] !== "" && p[1] !== null && p[1] !== undefined; })
      .map(function (p) { return [el("dt", {text: p[0]}), el("dd", {}, p[1])]; }));
  }

  function recordCard(r) {
    if (r.missing) return el("article", {class: "record", id: "rec-" + r.id}, el("h3", {text: r.id + " (not in the corpus)"}));
    var head = [r.source, r.channel ? "#" + r.channel : "", r.title, r.filename && r.filename !== r.title ? r.filename : "",
      r.page ? "page " + r.page : "", r.version > 1 ? "v" + r.version : ""].filter(Boolean).join(" · ");
    return el("article", {class: "record " + r.modality, id: "rec-" + r.id},
      el("h3", {}, el("span", {class: "rid", text: r.id}), " ", head),
      el("p", {class: "meta", text: [r.author, r.time, (r.recipients || []).length ? "to " + r.recipients.join(", ") : "",
        r.supersedes ? "revises " + r.supersedes : ""].filter(Boolean).join(" · ")}),
      r.image ? el("img", {src: r.image, alt: "image of record " + r.id, loading: "lazy", class: "recimg"}) : null,
      el("pre", {class: "text", text: r.text}),
      r.pixel_text ? el("details", {}, el("summary", {text: "text drawn in the image"}), el("pre", {class: "text", text: r.pixel_text})) : null);
  }

  function answersTable(rows) {
    if (!rows.length) return el("p", {text: "No run answered this question (sampled models answer a fixed sample)."});
    return el("table", {class: "list", id: "answers"}, el("thead", {}, el("tr", {},
      ["run", "verdict", "reason code", "answer", "judge's reason"].map(function (h) { return el("th", {text: h}); }))),
      el("tbody", {}, rows.map(function (a) {
        var mark = a.correct === null ? "—" : a.correct ? "right" : "wrong";
        return el("tr", {"data-run": a.run}, el("th", {scope: "row"}, el("a", {href: route("slice", {run: a.run}), text: a.run}),
            a.group === "submitted" ? el("span", {class: "tag own", text: "submitted"}) : null),
          el("td", {class: "verdict " + mark, text: mark}), el("td", {class: "code", text: a.code}),
          el("td", {class: "answer"}, a.error ? el("em", {text: "no answer: " + a.error}) : el("span", {text: a.answer})),
          el("td", {class: "reason", text: a.reason}));
      })));
  }

  function retrievalBlock(r) {
    var metrics = Object.keys(r.metrics).map(function (m) { return m + " " + Number(r.metrics[m]).toFixed(2); }).join(" · ");
    return el("div", {class: "retriever"}, el("h3", {text: r.retriever}),
      el("p", {class: "meta", text: metrics || "no gold evidence: no ranking metrics"}),
      el("table", {class: "list"}, el("thead", {}, el("tr", {}, ["rank", "score", "gold", "record", "source", "text"]
        .map(function (h) { return el("th", {text: h}); }))),
        el("tbody", {}, r.rows.map(function (row) {
          return el("tr", {class: row.gold ? "gold" : ""}, el("td", {class: "num", text: row.rank}),
            el("td", {class: "num", text: row.score === null ? "" : Number(row.score).toFixed(3)}),
            el("td", {class: "goldmark", text: row.gold ? "★ gold" : ""}), el("td", {class: "rid", text: row.id}),
            el("td", {text: row.source || ""}), el("td", {class: "snippet", text: (row.title ? row.title + ": " : "") + (row.text || "")}));
        }))),
      r.gold_not_retrieved.length ? el("p", {class: "note", text: "gold not retrieved at all: " + r.gold_not_retrieved.join(", ")}) : null);
  }

  function seedBlock(s) {
    if (!s.png) return el("p", {class: "note", id: "seed-none", text: "No seed page: " + s.why + (s.what ? " (" + s.what + ")" : "")});
    return el("figure", {class: "seed", id: "seed-page"},
      el("figcaption", {text: s.document + " — " + s.file + ", page " + s.page + ": " + s.what +
        (s.quote ? "; boxed: “" + s.quote + "”" : "") + (s.boxed ? "" : " (span not found: the page is shown unboxed)")}),
      el("div", {class: "seedpage"}, el("img", {src: s.png, alt: "seed page " + s.page + " of " + s.file, width: s.width, height: s.height}),
        (s.boxes || []).map(spanBox)));
  }

  /* A quoted span's box over the page image; its edges are fractions of the page, so it follows the image's scale. */
  function spanBox(b) {
    var box = el("span", {class: "span-box"});
    box.style.left = (100 * b[0]) + "%";
    box.style.top = (100 * b[1]) + "%";
    box.style.width = (100 * (b[2] - b[0])) + "%";
    box.style.height = (100 * (b[3] - b[1])) + "%";
    return box;
  }

  function lineageBlock(q) {
    return q.lineage.map(function (l) {
      return el("div", {class: "lineage"},
        el("ol", {class: "events"}, l.events.map(function (e) {
          return el("li", {text: [e.time, e.actor, e.kind, e.where ? "in " + e.where : "", e.summary].filter(Boolean).join(" · ") || e.id});
        })),
        el("p", {class: "arrow"}, "→ record ", el("a", {href: "#/q/" + encodeURIComponent(q.id) + "?focus=rec-" + encodeURIComponent(l.record), text: l.record}),
          l.versions.length > 1 ? " (versions: " + l.versions.join(" → ") + ")" : "", " → question " + q.id),
        l.source_facts.length ? el("ul", {class: "facts"}, l.source_facts.map(function (f) { return el("li", {text: f}); })) : null,
        l.cited_by.length > 1 ? el("p", {class: "meta"}, "also cited by: ", l.cited_by.filter(function (c) { return c !== q.id; })
          .map(function (c) { return [qLink(c), " "]; })) : null);
    });
  }

  MMEB.routes.q = function (page, where) {
    var id = where.rest.join("/");
    return MMEB.loadIndex().then(function (index) {
      var number = index.pos.get(id);
      if (number === undefined) { fill(page, el("h1", {text: "No question " + id})); return; }
      return MMEB.load("q:" + number, fileOf(number)).then(function (q) {
        var gold = q.gold.answer + (q.gold.value && q.gold.value !== q.gold.answer ? " (value " + q.gold.value + (q.gold.unit ? " " + q.gold.unit : "") + ")" : "");
        fill(page, el("h1", {}, "Question ", el("span", {class: "rid", text: q.id})),
          el("blockquote", {class: "question", text: q.q}),
          dl([["gold", el("strong", {class: "gold", text: gold})], ["status", q.status], ["task", q.task], ["project", q.project],
            ["generator", el("a", {href: route("slice", {generator: q.generator}), text: q.generator})],
            ["derivation", q.derivation + (q.fact_key ? " of " + q.fact_key : "")], ["boundary", q.boundary], ["validation", q.validation]]),
          el("nav", {class: "jump", "aria-label": "sections"}, "Jump to: ", [["sec-answers", "answers"], ["evidence", "gold evidence"],
            ["sec-retrieval", "retrieval"], ["sec-seed", "seed page"], ["sec-lineage", "lineage"]].map(function (s) {
              return el("a", {href: "#/q/" + encodeURIComponent(q.id) + "?focus=" + s[0], text: s[1]}); })),
          section("Answers: every model × k", "sec-answers"), answersTable(q.answers),
          section("Gold evidence (" + q.evidence.length + " record" + (q.evidence.length === 1 ? "" : "s") + ")", "evidence"),
          q.evidence.map(recordCard),
          q.solution.length ? el("ol", {class: "solution"}, q.solution.map(function (s) { return el("li", {text: s.step}); })) : null,
          section("Retrieved records per retriever", "sec-retrieval"), q.retrieval.map(retrievalBlock),
          section("Seed document page", "sec-seed"), seedBlock(q.seed),
          section("Lineage: events → records → question", "sec-lineage"), lineageBlock(q));
        var focus = where.params.focus;
        if (focus) requestAnimationFrame(function () { var t = document.getElementById(focus); if (t) t.scrollIntoView(); });
      });
    });
  };
})();
