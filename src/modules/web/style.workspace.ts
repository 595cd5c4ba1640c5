// The workspace pages' styles (pipeline board, deal, charts, book tables, reports), appended to
// app.css. No inline styles anywhere: the content security policy allows none.

export const WORKSPACE_CSS = `
.js .js-hide { display: none !important; }
.nav-menu > summary { color: #c9d6ea; padding: 6px 12px; border-radius: 6px; font-weight: 500; cursor: pointer; list-style: none; }
.nav-menu > summary::-webkit-details-marker { display: none; }
.nav-menu > summary::after { content: " ▾"; font-size: .75em; }
.nav-menu > summary:hover { color: #fff; background: rgba(255,255,255,.08); }
.nav-menu > summary.active { color: #fff; background: rgba(255,255,255,.16); }
.nav-menu[open] > .nav-menu-body { left: 0; right: auto; width: 200px; padding: 6px; display: flex; flex-direction: column; }
.nav-menu-body a { color: var(--ink); padding: 7px 10px; border-radius: 6px; }
.nav-menu-body a:hover, .nav-menu-body a.active { background: #eef2f8; color: var(--ink); text-decoration: none; }
.org-name { max-width: 220px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }

.filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-end; }
.filters .field { margin: 0; min-width: 150px; }
.filters .field.grow { flex: 1; min-width: 220px; }
.filters select, .filters input { padding: 6px 9px; }
.toolbar { display: flex; justify-content: space-between; align-items: center; gap: 12px; flex-wrap: wrap; margin-bottom: 14px; }
.seg { display: inline-flex; border: 1px solid #cfd5dd; border-radius: 6px; overflow: hidden; }
.seg a { padding: 5px 12px; color: var(--ink); font-size: .88rem; }
.seg a + a { border-left: 1px solid #cfd5dd; }
.seg a.active { background: var(--brand); color: #fff; }
.seg a:hover { text-decoration: none; }

.board { display: grid; grid-template-columns: repeat(6, minmax(180px, 1fr)); gap: 10px; align-items: start; overflow-x: auto; padding-bottom: 6px; }
.col { background: #eceff4; border-radius: var(--radius); padding: 8px; min-height: 120px; }
.col-head { display: flex; justify-content: space-between; align-items: baseline; padding: 4px 6px 8px; font-weight: 650; font-size: .9rem; }
.col-head .n { color: var(--muted); font-weight: 600; font-size: .82rem; }
.deal-card { background: var(--surface); border: 1px solid var(--line); border-radius: 7px; padding: 8px 9px; margin-bottom: 8px; box-shadow: 0 1px 1px rgba(16,24,40,.04); }
.deal-card .top { display: flex; justify-content: space-between; gap: 8px; align-items: flex-start; }
.deal-card .name { font-weight: 650; font-size: .9rem; color: var(--ink); line-height: 1.25; overflow-wrap: break-word; min-width: 0; }
.deal-card .meta { color: var(--muted); font-size: .8rem; margin-top: 3px; }
.deal-card form { margin-top: 7px; display: flex; gap: 6px; }
.deal-card select { font-size: .8rem; padding: 3px 6px; }
.col-more { display: block; text-align: center; font-size: .84rem; padding: 6px; }

.score { display: inline-flex; align-items: center; justify-content: center; min-width: 34px; height: 24px; padding: 0 7px; border-radius: 6px; font-weight: 700; font-size: .85rem; font-variant-numeric: tabular-nums; }
.score.high { background: #dff3e8; color: #146c3e; }
.score.mid { background: #fdf0d6; color: #7a5000; }
.score.low { background: #fbe3e0; color: #9b2116; }
.score.none { background: #eef1f5; color: var(--faint); font-weight: 600; }
.score.big { min-width: 64px; height: 48px; font-size: 1.6rem; border-radius: 10px; }

.two-col { display: grid; grid-template-columns: minmax(0, 2fr) minmax(280px, 1fr); gap: 20px; align-items: start; }
.three { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 14px; }
@media (max-width: 900px) { .two-col { grid-template-columns: 1fr; } }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; font-size: .93rem; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; word-break: break-word; }
.kpi { border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 12px; background: #fbfcfd; }
.kpi .v { font-size: 1.25rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.kpi .l { color: var(--muted); font-size: .8rem; }

.section { border-top: 1px solid var(--line); padding: 14px 0; }
.section:first-of-type { border-top: 0; padding-top: 0; }
.section-head { display: flex; align-items: center; gap: 12px; }
.section-head h3 { margin: 0; flex: 1; }
.section p { margin: 6px 0; }
.evidence { list-style: none; margin: 8px 0 0; padding: 0; }
.evidence li { border-left: 3px solid #c9d8f5; background: #f7f9fd; padding: 7px 10px; margin-bottom: 6px; border-radius: 0 6px 6px 0; }
.evidence q { font-style: italic; }
.evidence .src { display: block; font-size: .8rem; color: var(--muted); margin-top: 2px; }
.unavailable { color: var(--warn); background: var(--warn-bg); border-radius: 6px; padding: 6px 10px; font-size: .88rem; }

.progress { border: 1px solid #bcd2f7; background: #eef4fe; border-radius: var(--radius); padding: 12px 16px; margin-bottom: 18px; }
.progress .meter-bar { width: 100%; height: 8px; margin-top: 8px; }
.progress .meter-bar span { transition: width .4s; }

.chart { margin: 0 0 18px; }
.chart figcaption { margin-bottom: 6px; }
.chart-canvas { width: 100%; min-height: 220px; }
.chart-data summary { cursor: pointer; color: var(--accent); font-size: .85rem; margin-top: 4px; }
.chart-data .table-wrap { max-height: 320px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; margin-top: 6px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 8px 24px; }
table.compact th, table.compact td { padding: 6px 10px; }
.uplot { font-family: inherit; }
.u-legend { font-size: .8rem; margin-top: 2px; }
.u-legend th, .u-legend td { padding: 1px 6px; border: 0; background: none; text-transform: none; letter-spacing: 0; vertical-align: middle; }
.u-legend th { font-weight: 600; color: var(--ink); font-size: .8rem; }
.u-legend .u-marker { width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; }
.u-legend tr:first-child th::after { content: ""; }

td.num { white-space: nowrap; }
tr.total td { font-weight: 650; background: #fafbfc; }
.flag { display: inline-block; margin: 1px 4px 1px 0; }
.flags-explained { margin: 0; padding-left: 1.2rem; font-size: .88rem; }
.flags-explained li { margin: 3px 0; }

.path-signals { display: flex; flex-wrap: wrap; gap: 4px 12px; font-size: .82rem; color: var(--muted); }
.path-signals b { color: var(--ink); font-weight: 600; }
.warmth { display: inline-flex; align-items: center; gap: 6px; }

.report { line-height: 1.6; }
.report h1 { font-size: 1.35rem; }
.report h2 { font-size: 1.1rem; margin-top: 1.4rem; }
.report h3 { font-size: 1rem; margin-top: 1.1rem; }
.report ul, .report ol { padding-left: 1.3rem; }
.report li { margin: .3rem 0; }
.report code { background: #f0f2f5; padding: 1px 4px; border-radius: 4px; font-size: .82em; word-break: break-all; }
.report pre { background: #f5f6f8; padding: 10px; border-radius: 6px; overflow-x: auto; }
.report blockquote { border-left: 3px solid var(--line); margin: 0; padding-left: 12px; color: var(--muted); }
.report table { width: auto; }
a.cite { font-size: .8em; vertical-align: super; text-decoration: none; padding: 0 1px; }
.citations { margin: 0; padding-left: 1.4rem; }
.citations li { margin: 6px 0; }
.citations q { color: var(--muted); font-style: italic; }
:target { scroll-margin-top: 16px; }
li:target, tr:target, .section:target { background: #fff8dc; }

.doc-page { border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin-bottom: 12px; white-space: pre-wrap; font-size: .9rem; background: #fff; }
.doc-page h3 { white-space: normal; font-size: .85rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
mark { background: #fff0a8; padding: 0 1px; }
.upload-row { display: flex; gap: 10px; align-items: flex-end; flex-wrap: wrap; }
.upload-row .field { margin: 0; }
input[type=file] { font: inherit; font-size: .88rem; }
textarea { font: inherit; width: 100%; padding: 8px 10px; border: 1px solid #cfd5dd; border-radius: 6px; min-height: 84px; resize: vertical; }
.budget-note { font-size: .82rem; color: var(--muted); display: flex; align-items: center; gap: 8px; }
.cards-row { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 14px; margin-bottom: 20px; }
.cards-row .card { margin: 0; }
.card-body { padding: 14px 22px 18px; border-top: 1px solid var(--line); }
ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain li { padding: 4px 0; border-bottom: 1px solid #f0f2f5; }
ul.plain li:last-child { border-bottom: 0; }
details.card > summary { list-style: none; cursor: pointer; display: inline-flex; }
details.card > summary::-webkit-details-marker { display: none; }
details.card[open] > summary { margin-bottom: 14px; }
.head-actions { display: flex; gap: 10px; align-items: center; }
details.menu.wide[open] > .menu-body { width: 380px; }
.menu-body .upload-row { flex-direction: column; align-items: stretch; }
.assessment { display: flex; gap: 18px; align-items: flex-start; }
.assessment h2 { margin-bottom: 4px; }
.section-scores { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin-top: 14px; }
.section-score { display: flex; justify-content: space-between; align-items: center; gap: 8px; border: 1px solid var(--line); border-radius: 7px; padding: 6px 8px 6px 10px; color: var(--ink); font-size: .88rem; }
.section-score:hover { background: #f7f9fc; text-decoration: none; }
.grow { flex: 1; }
.notice { background: #f7f9fc; border: 1px dashed #cfd5dd; border-radius: var(--radius); padding: 18px 20px; }
`;
