// The web app's script (/app/assets/app.js), served from the binary. A light touch on
// server-rendered pages: confirmations, copy buttons, forms that submit on change, live progress of
// a running analysis or research over its event stream, and charts drawn with uPlot from the JSON
// data blocks the pages carry. Every page works without it, except that charts then show as tables.
import uplotCss from "uplot/dist/uPlot.min.css" with { type: "file" };
import uplotJs from "uplot/dist/uPlot.iife.min.js" with { type: "file" };

/** Paths of uPlot's files (inside the binary when compiled). */
export const UPLOT_FILES = { js: uplotJs, css: uplotCss };

export const JS = `
(function () {
  document.documentElement.classList.add("js");

  // Forms that ask first: <form data-confirm="...">.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);

  // <select data-autosubmit>: choosing is submitting (the button is there without script).
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!el || !el.hasAttribute || !el.hasAttribute("data-autosubmit") || !el.form) return;
    if (el.form.requestSubmit) el.form.requestSubmit(); else el.form.submit();
  });

  // Copy buttons: <button data-copy="element-id">.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var text = source.textContent.trim();
    var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 2000); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
    } else {
      selectText(source);
      try { if (document.execCommand("copy")) done(); } catch (e) {}
    }
  });
  function selectText(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  // Live progress: <div data-events="/app/.../events"> with [data-progress-text] and [data-progress-bar].
  var STAGES = { starting: "Starting", fetch: "Fetching the material", extract: "Reading the documents", classify: "Sorting the data room",
    plan: "Planning", search: "Searching the firm's records", read: "Reading the sources", write: "Writing the report" };
  function describe(d) {
    if (d.status === "queued") return d.waiting_for === "email_verification" ? "Waiting for the document host's email verification" : "Queued: waiting for a free worker";
    if (d.status === "succeeded") return "Finished";
    if (d.status === "failed") return "Failed: " + (d.error || "no reason given");
    var p = d.progress || {};
    var text = STAGES[p.stage] || (p.stage ? String(p.stage).replace(/_/g, " ") : "Running");
    if (p.documents) text += " (" + p.document + " of " + p.documents + ")";
    if (typeof p.percent === "number") text += " · " + p.percent + "%";
    return text;
  }
  function percentOf(d) {
    if (d.status === "succeeded" || d.status === "failed") return 100;
    var p = d.progress || {};
    if (typeof p.percent === "number") return p.percent;
    if (p.documents) return Math.round(100 * p.document / p.documents);
    return d.status === "running" ? 10 : 0;
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-events]"), function (box) {
    if (!window.EventSource) return;
    var text = box.querySelector("[data-progress-text]");
    var bar = box.querySelector("[data-progress-bar]");
    var source = new EventSource(box.getAttribute("data-events"));
    var finished = false;
    source.addEventListener("progress", function (event) {
      var d = JSON.parse(event.data);
      if (text) text.textContent = describe(d);
      if (bar) { bar.className = ""; bar.style.width = percentOf(d) + "%"; }
    });
    source.addEventListener("done", function () {
      finished = true;
      source.close();
      window.location.reload();
    });
    source.addEventListener("error", function () {
      if (finished) return;
      if (source.readyState === 2 && text) text.textContent += " (live updates stopped: reload the page to see where it is)";
    });
  });

  // Charts: <div data-chart="id"> and <script type="application/json" id="chart-id">.
  if (!window.uPlot) return;
  var money = {};
  function moneyFormat(currency, compact) {
    var key = (currency || "") + compact;
    if (!money[key]) {
      try {
        money[key] = currency
          ? new Intl.NumberFormat("en-US", compact ? { style: "currency", currency: currency, notation: "compact", maximumFractionDigits: 1 } : { style: "currency", currency: currency, maximumFractionDigits: 0 })
          : new Intl.NumberFormat("en-US", compact ? { notation: "compact", maximumFractionDigits: 1 } : { maximumFractionDigits: 0 });
      } catch (e) {
        money[key] = new Intl.NumberFormat("en-US", { maximumFractionDigits: compact ? 1 : 0 });
      }
    }
    return money[key];
  }
  function formatter(spec, compact) {
    if (spec.unit === "money") { var f = moneyFormat(spec.currency, compact); return function (v) { return f.format(v); }; }
    if (spec.unit === "multiple") return function (v) { return v.toFixed(2) + "x"; };
    if (spec.unit === "percent") return function (v) { return (v * 100).toFixed(1) + "%"; };
    var n = new Intl.NumberFormat("en-US", compact ? { notation: "compact", maximumFractionDigits: 1 } : { maximumFractionDigits: 2 });
    // The axis has room for "%" only; the legend and the table give the whole unit.
    var suffix = compact ? (spec.suffix === "%" ? "%" : "") : spec.suffix || "";
    return function (v) { return n.format(v) + suffix; };
  }
  var charts = [];
  function day(d) { return Date.parse(d.length === 10 ? d + "T00:00:00Z" : d) / 1000; }
  Array.prototype.forEach.call(document.querySelectorAll("[data-chart]"), function (el) {
    var block = document.getElementById("chart-" + el.getAttribute("data-chart"));
    if (!block) return;
    var spec = JSON.parse(block.textContent);
    var exact = formatter(spec, false);
    var short = formatter(spec, true);
    var bars = uPlot.paths && uPlot.paths.bars ? uPlot.paths.bars({ size: [0.7, 28] }) : null;
    var series = [{ value: function (u, v) { return v == null ? "" : new Date(v * 1000).toISOString().slice(0, 10); } }];
    spec.series.forEach(function (s) {
      series.push({
        label: s.label,
        stroke: s.color,
        width: s.bars ? 1 : 2,
        fill: s.bars ? s.color + "bb" : undefined,
        dash: s.dash ? [6, 5] : undefined,
        spanGaps: true,
        paths: s.bars && bars ? bars : undefined,
        points: { show: !s.bars && spec.x.length <= 24, size: 5 },
        value: function (u, v) { return v == null ? "—" : exact(v); }
      });
    });
    var data = [spec.x.map(day)].concat(spec.series.map(function (s) { return s.values; }));
    var opts = {
      width: Math.max(280, el.clientWidth),
      height: 230,
      series: series,
      tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
      scales: { x: { time: true } },
      axes: [{ stroke: "#5b6675", grid: { stroke: "#eef0f3" } },
             { stroke: "#5b6675", size: 64, grid: { stroke: "#eef0f3" }, values: function (u, ticks) { return ticks.map(function (v) { return v == null ? "" : short(v); }); } }],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } }
    };
    charts.push({ el: el, plot: new uPlot(opts, data, el) });
  });
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      charts.forEach(function (c) { c.plot.setSize({ width: Math.max(280, c.el.clientWidth), height: 230 }); });
    }, 150);
  });
})();
`;
