import ChronicleTracer

/// The viewer page's HTML, CSS and script, into which ``JournalViewer`` puts the data.
enum ViewerPage {
  /// The template with its placeholders filled in one pass over the template: the text put in
  /// is never searched, so a title holding `__DATA__` stays a title.
  static func html(title: String, data: String) -> String {
    let (before, after) = parts(title: title)
    return before + data + after
  }

  /// The page before and after its data, with the title in place. The template holds the data's
  /// placeholder once; the title is put in each part in one pass, so a title holding a
  /// placeholder stays a title.
  static func parts(title: String) -> (before: String, after: String) {
    let escaped = escape(title)
    func titled(_ part: Substring) -> String {
      part.replacingOccurrences(of: "__TITLE__", with: escaped)
    }
    guard let data = template.range(of: "__DATA__") else { return (titled(template[...]), "") }
    return (titled(template[..<data.lowerBound]), titled(template[data.upperBound...]))
  }

  /// `text` with HTML's special characters escaped.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }

  private static let template = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>__TITLE__</title>
    <style>
    :root { --bg: #fbfbfd; --fg: #1d1d1f; --muted: #6e6e73; --line: #e3e3e8; --accent: #3559d8;
      --sel: #dde5ff; --add: #1f7a33; --del: #b3261e; --red: #8a3ffc; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 13px/1.4 -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
      background: var(--bg); display: flex; flex-direction: column; height: 100vh; }
    header { display: flex; gap: 8px; align-items: center; padding: 8px 12px; border-bottom: 1px solid var(--line); }
    header h1 { font-size: 15px; margin: 0 8px 0 0; white-space: nowrap; }
    header input[type=search] { flex: 1; min-width: 120px; padding: 4px 8px; }
    #types { color: var(--muted); font-size: 12px; white-space: nowrap; }
    #timeline { display: flex; gap: 8px; align-items: center; padding: 4px 12px; border-bottom: 1px solid var(--line); }
    #slider { flex: 1; }
    main { flex: 1; display: flex; min-height: 0; }
    #list { width: 50%; overflow-y: auto; position: relative; border-right: 1px solid var(--line); }
    #spacer { position: relative; }
    .row { position: absolute; left: 0; right: 0; height: 22px; display: flex; gap: 8px; padding: 0 8px;
      align-items: center; white-space: nowrap; cursor: pointer; font-family: ui-monospace, Menlo, monospace;
      font-size: 12px; border-bottom: 1px solid #f0f0f4; }
    .row:hover { background: #f0f2fa; }
    .row.selected { background: var(--sel); }
    .row.stopped .type { text-decoration: line-through; }
    .seq { width: 56px; color: var(--muted); text-align: right; }
    .type { width: 150px; overflow: hidden; text-overflow: ellipsis; font-weight: 600; }
    .ctx { width: 110px; overflow: hidden; text-overflow: ellipsis; color: #555; }
    .cause { flex: 1; overflow: hidden; text-overflow: ellipsis; color: var(--muted); }
    .cause a { color: var(--accent); text-decoration: underline; }
    .dur { width: 72px; text-align: right; color: var(--muted); }
    #detail { width: 50%; overflow: auto; padding: 8px 14px; }
    #detail h2 { font-size: 13px; margin: 14px 0 4px; text-transform: uppercase; color: var(--muted); }
    pre { margin: 0; font: 12px ui-monospace, Menlo, monospace; white-space: pre-wrap; }
    #diff div { font: 12px ui-monospace, Menlo, monospace; padding: 1px 0; }
    .path { font-weight: 600; }
    .old { color: var(--del); }
    .new { color: var(--add); }
    .redacted { color: var(--red); font-style: italic; }
    .tree { font: 12px ui-monospace, Menlo, monospace; }
    .tree details > div { margin-left: 16px; }
    .tree summary { cursor: pointer; }
    .key { color: #7a3e9d; }
    .note { color: var(--muted); font-style: italic; }
    #instances { width: 220px; overflow-y: auto; border-right: 1px solid var(--line); font-size: 12px; }
    .instance { padding: 6px 10px; border-bottom: 1px solid #f0f0f4; cursor: pointer; }
    .instance.current { background: var(--sel); }
    .instance .name { font-weight: 600; }
    .instance .meta { color: var(--muted); }
    .instance.offline .name::after { content: " (stored)"; color: var(--muted); font-weight: 400; }
    #controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 4px 12px;
      border-bottom: 1px solid var(--line); }
    #controls button:disabled { opacity: 0.4; }
    #dispatch-text { width: 260px; font: 12px ui-monospace, Menlo, monospace; }
    #result.error { color: var(--del); }
    .row.gap { background: #fff4e5; color: #8a4b00; font-style: italic; }
    [hidden] { display: none !important; }
    footer { padding: 4px 12px; border-top: 1px solid var(--line); color: var(--muted); font-size: 12px; }
    </style>
    </head>
    <body>
    <header>
      <h1 id="title">__TITLE__</h1>
      <input id="filter" type="search" placeholder="Filter by action, context, cause…" aria-label="Filter">
      <select id="context" aria-label="Context"><option value="">all contexts</option></select>
      <span id="types"></span>
    </header>
    <div id="controls" hidden>
      <label><input id="follow" type="checkbox" checked> follow</label>
      <button data-command="undo">undo</button><button data-command="redo">redo</button>
      <button data-command="jump" title="Show the state after the selected entry">jump</button>
      <button data-command="returnToPresent">present</button>
      <button data-command="skip" title="Skip or unskip the selected entry">skip</button>
      <button data-command="commit">commit</button><button data-command="reset">reset</button>
      <button data-command="pause">pause</button><button data-command="resume">resume</button>
      <input id="dispatch-text" placeholder='{"increment":{}}' aria-label="Action to dispatch (JSON)">
      <button data-command="dispatch">dispatch</button>
      <a id="export" href="#" download>export Journal JSON</a>
      <span id="result" role="status"></span>
      <span id="app-status"></span>
    </div>
    <div id="timeline"><label for="slider">time</label><input id="slider" type="range" min="0" value="0">
      <span id="position"></span></div>
    <main>
      <div id="instances" hidden></div>
      <div id="list" tabindex="0"><div id="spacer"></div></div>
      <div id="detail"><p class="note">Select an entry.</p></div>
    </main>
    <footer id="status"></footer>
    <script type="application/json" id="journal-data">__DATA__</script>
    <script>
    "use strict";
    // A page with no journal in it connects live to the inspector that served it.
    const LIVE = JSON.parse(document.getElementById("journal-data").textContent) === null;
    const D = LIVE ? { title: document.title, stateType: "", actionType: "", origin: null, entries: [], contexts: [],
      effects: [], base: null, patches: [], full: [] } : JSON.parse(document.getElementById("journal-data").textContent);
    const E = D.entries, ROW = 22;
    let N = E.length;
    const $ = (id) => document.getElementById(id);
    const list = $("list"), spacer = $("spacer"), detail = $("detail"), slider = $("slider");
    const bySeq = new Map();
    for (let i = 0; i < N; i++) bySeq.set(E[i][1], i);
    const full = new Map(D.full.map((pair) => [pair[0], pair[1]]));
    // Effects, thunks and timers by the sequence number of the action that started them.
    const effectsOf = new Map();
    for (const f of D.effects || []) {
      if (f[3] === null) continue;
      if (!effectsOf.has(f[3])) effectsOf.set(f[3], []);
      effectsOf.get(f[3]).push(f);
    }
    const cache = new Map();
    let filtered = new Int32Array(N).map((_, i) => i);
    let selected = -1;
    let haystack = null;

    function esc(text) {
      return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
    }
    // "sent from CounterView.swift:42 in body()", and where the effect that sent it was created;
    // with a source root, each site links to it in an editor.
    function siteText(k, verb) {
      const s = D.sites[k], file = s[0].slice(s[0].lastIndexOf("/") + 1);
      const fn = s[2].includes("(") ? s[2] : s[2] + "()";
      const where = esc(file + ":" + s[1]);
      const link = D.sourceRoot ? '<a class="site-link" href="' + esc(D.sourceRoot + s[0] + ":" + s[1]) + '">' + where + "</a>" : where;
      return verb + " " + link + " in " + esc(fn);
    }
    function siteHTML(pos) {
      const pair = D.entrySites ? D.entrySites[pos] : undefined;
      if (!pair || (pair[0] < 0 && pair[1] < 0)) return "";
      let lines = [];
      if (pair[0] >= 0) lines.push('<span class="site">' + siteText(pair[0], "sent from") + "</span>");
      if (pair[1] >= 0) lines.push('<span class="effect-site">' + siteText(pair[1], "by the effect created at") + "</span>");
      return '<h2>Call site</h2><pre class="sites">' + lines.join("\n") + "</pre>";
    }
    function duration(ns) {
      if (ns >= 1e9) return (ns / 1e9).toFixed(2) + " s";
      if (ns >= 1e6) return (ns / 1e6).toFixed(1) + " ms";
      if (ns >= 1e3) return (ns / 1e3).toFixed(1) + " µs";
      return ns + " ns";
    }
    function contextName(e) { return e[3] < 0 ? "" : D.contexts[e[3]]; }
    function causeText(e) {
      let text = e[4];
      if (e[6] !== null) text += " " + JSON.stringify(e[6]);
      if (e[5] !== null) text += " ← #" + e[5];
      return text;
    }
    function clone(value) { return value === null || typeof value !== "object" ? value : JSON.parse(JSON.stringify(value)); }
    // A state's keys are own properties, set with defineProperty: plain assignment of "__proto__"
    // would set the object's prototype and lose the key.
    function setKey(target, key, value) {
      Object.defineProperty(target, key, { value: value, writable: true, enumerable: true, configurable: true });
    }
    function hasKey(value, key) { return Object.prototype.hasOwnProperty.call(value, key); }

    // States are rebuilt on demand: from the nearest full or cached state, applying each entry's changes.
    function applyPatch(state, patch) {
      const path = patch[0];
      if (path.length === 0) return patch.length > 1 ? clone(patch[1]) : null;
      let target = state;
      for (let i = 0; i < path.length - 1; i++) target = hasKey(target, path[i]) ? target[path[i]] : undefined;
      const last = path[path.length - 1];
      if (patch.length > 2) target.splice(last, 0, clone(patch[1]));
      else if (patch.length > 1) { if (Array.isArray(target)) target[last] = clone(patch[1]); else setKey(target, last, clone(patch[1])); }
      else if (Array.isArray(target)) target.splice(last, 1);
      else delete target[last];
      return state;
    }
    function stateAfter(pos) {
      if (pos < 0) return D.base === null ? undefined : D.base;
      if (full.has(pos)) return full.get(pos);
      if (cache.has(pos)) return cache.get(pos);
      let start = pos;
      while (start >= 0 && !full.has(start) && !cache.has(start)) {
        if (D.patches[start] === null) return undefined;
        start--;
      }
      let state = start < 0 ? D.base : full.has(start) ? full.get(start) : cache.get(start);
      if (state === undefined || state === null) return undefined;
      state = clone(state);
      for (let p = start + 1; p <= pos; p++) for (const patch of D.patches[p]) state = applyPatch(state, patch);
      if (cache.size > 4096) cache.clear();
      cache.set(pos, state);
      return state;
    }
    function valueAt(state, path) {
      let value = state;
      for (const key of path) {
        if (value === null || typeof value !== "object" || !hasKey(value, key)) return undefined;
        value = value[key];
      }
      return value;
    }
    function pathText(path) {
      let text = "";
      for (const key of path) text += typeof key === "number" ? "[" + key + "]" : (text ? "." : "") + key;
      return text || "state";
    }
    function valueHTML(value) {
      if (value === undefined) return '<span class="note">(none)</span>';
      const text = JSON.stringify(value);
      return value === "<redacted>" ? '<span class="redacted">' + esc(text) + "</span>" : esc(text);
    }

    function rowHTML(k) {
      const p = filtered[k], e = E[p];
      if (e[13]) return '<div class="row gap' + (p === selected ? " selected" : "") + '" data-pos="' + p + '" style="top:' +
        k * ROW + 'px">gap: ' + e[13].dropped + " lines (" + e[13].entries + " entries) dropped</div>";
      const cause = e[5] === null ? esc(causeText(e))
        : esc(e[4] + (e[6] !== null ? " " + JSON.stringify(e[6]) : "")) +
          ' <a href="#" data-seq="' + e[5] + '">← #' + e[5] + "</a>";
      return '<div class="row' + (p === selected ? " selected" : "") + (e[10] === "stopped" ? " stopped" : "") +
        '" data-pos="' + p + '" style="top:' + k * ROW + 'px"><span class="seq">#' + e[1] +
        '</span><span class="type">' + esc(e[7]) + '</span><span class="ctx">' + esc(contextName(e)) +
        '</span><span class="cause">' + cause + '</span><span class="dur">' + duration(e[8]) + "</span></div>";
    }
    // Only the rows on screen exist: the list stays fast with any number of entries.
    function renderRows() {
      const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
      const last = Math.min(filtered.length, first + Math.ceil((list.clientHeight || 600) / ROW) + 10);
      let html = "";
      for (let k = first; k < last; k++) html += rowHTML(k);
      spacer.innerHTML = html;
    }
    function applyFilter() {
      const text = $("filter").value.trim().toLowerCase();
      const context = $("context").value;
      if (text && haystack === null) {
        haystack = new Array(N);
        for (let i = 0; i < N; i++) {
          const e = E[i];
          haystack[i] = haystackText(E[i]);
        }
      }
      if (!text && context === "") { filtered = identity(N); finishFilter(); return; }
      const out = new Int32Array(N);
      let n = 0;
      for (let i = 0; i < N; i++) {
        if (context !== "" && E[i][3] !== Number(context)) continue;
        if (text && !haystack[i].includes(text)) continue;
        out[n++] = i;
      }
      filtered = out.subarray(0, n);
      finishFilter();
    }
    let identityBuffer = new Int32Array(0);
    // 0, 1, … n-1, grown by doubling, so a list that grows as entries arrive costs no copy per entry.
    function identity(n) {
      if (identityBuffer.length < n) {
        const grown = new Int32Array(Math.max(n, identityBuffer.length * 2, 1024));
        for (let i = 0; i < grown.length; i++) grown[i] = i;
        identityBuffer = grown;
      }
      return identityBuffer.subarray(0, n);
    }
    function finishFilter() {
      const n = filtered.length;
      spacer.style.height = n * ROW + "px";
      $("status").textContent = N + " entries, " + n + " shown";
      renderRows();
    }
    function haystackText(e) {
      return (e[7] + " " + e[9] + " " + contextName(e) + " " + causeText(e) + " #" + e[1]).toLowerCase();
    }
    function filteredIndex(pos) {
      let low = 0, high = filtered.length;
      while (low < high) { const mid = (low + high) >> 1; if (filtered[mid] < pos) low = mid + 1; else high = mid; }
      return low < filtered.length && filtered[low] === pos ? low : -1;
    }

    function treeNode(key, value, open) {
      if (value === null || typeof value !== "object") {
        const leaf = document.createElement("div");
        leaf.innerHTML = (key === null ? "" : '<span class="key">' + esc(key) + "</span>: ") + valueHTML(value);
        return leaf;
      }
      const keys = Object.keys(value);
      const node = document.createElement("details");
      const summary = document.createElement("summary");
      summary.innerHTML = (key === null ? "state" : '<span class="key">' + esc(key) + "</span>") +
        (Array.isArray(value) ? " [" + keys.length + "]" : " {" + keys.length + "}");
      node.appendChild(summary);
      const children = document.createElement("div");
      node.appendChild(children);
      // Children are built when first opened, so a huge state costs nothing until explored.
      const fill = () => {
        if (children.childElementCount || !node.open) return;
        for (const k of keys) children.appendChild(treeNode(Array.isArray(value) ? "[" + k + "]" : k, value[k], false));
      };
      node.addEventListener("toggle", fill);
      node.open = open;
      fill();
      return node;
    }

    function select(pos, scroll) {
      if (pos < 0 || pos >= N) return;
      selected = pos;
      const e = E[pos];
      slider.value = pos;
      $("position").textContent = (pos + 1) + " / " + N;
      if (e[13]) {
        detail.innerHTML = '<h2>Gap</h2><p class="gap">The app\'s buffer overflowed: ' + e[13].dropped + " lines (" +
          e[13].entries + " entries) were dropped here.</p>";
        renderRows();
        return;
      }
      document.body.dataset.selected = e[1];
      history.replaceState(null, "", "#select=" + e[1]);
      let html = "<h2>Entry</h2><pre>#" + e[1] + " " + esc(e[7]) + "  index " + e[0] + "  context " +
        esc(contextName(e) || "—") + "  " + duration(e[8]) + "  " + esc(e[10]) + "</pre>";
      html += siteHTML(pos);
      html += '<h2>Cause</h2><pre class="cause">' + esc(e[4]) + (e[6] !== null ? " " + esc(JSON.stringify(e[6])) : "") +
        (e[5] !== null ? ' <a href="#" data-seq="' + e[5] + '">← #' + e[5] + "</a>" : "") + "</pre>";
      // The chain of causes up to the action no other one caused.
      let chain = "", link = e[5], hops = 0;
      while (link !== null && hops < 50) {
        const at = bySeq.get(link);
        chain += ' ← <a href="#" data-seq="' + link + '">#' + link + (at === undefined ? "" : " " + esc(E[at][7])) + "</a>";
        link = at === undefined ? null : E[at][5];
        hops++;
      }
      if (chain) html += '<h2>Cause chain</h2><pre id="cause-chain">#' + e[1] + chain + "</pre>";
      let action;
      try { action = JSON.stringify(JSON.parse(e[9]), null, 2); } catch (_) { action = e[9]; }
      html += '<h2>Action</h2><pre id="action">' + esc(action).replaceAll("&quot;&lt;redacted&gt;&quot;",
        '<span class="redacted">"&lt;redacted&gt;"</span>') + "</pre>";
      const started = effectsOf.get(e[1]) || [];
      if (started.length > 0) {
        html += '<h2>Effects</h2><div id="effects">';
        for (const f of started) {
          html += '<div class="effect"><span class="path">' + esc(f[1] + (f[2] !== null ? " " + JSON.stringify(f[2]) : "")) +
            "</span> #" + f[0] + ": " + duration(f[4] - e[2]) + " after the action, for " + duration(f[5] - f[4]) +
            ", " + esc(f[6]) + (f[7] !== null ? ": " + esc(f[7]) : "") + "</div>";
        }
        html += "</div>";
      }
      html += '<h2>Diff</h2><div id="diff">';
      const patches = D.patches[pos];
      if (patches === null) html += LIVE ? '<p class="note">No change list for this entry (the app sent its whole state).</p>'
        : '<p class="note">This file does not hold the states around this entry (export with states: .everyEntry).</p>';
      else if (patches.length === 0) html += '<p class="note">no change</p>';
      else {
        // Each patch's path names the state as the patches before it left it.
        const before = stateAfter(pos - 1);
        let current = before === undefined ? undefined : clone(before);
        for (const patch of patches) {
          const old = patch.length > 2 || current === undefined ? undefined : valueAt(current, patch[0]);
          html += '<div class="change"><span class="path">' + esc(pathText(patch[0])) + '</span>: <span class="old">' +
            valueHTML(old) + '</span> → <span class="new">' +
            valueHTML(patch.length > 1 ? patch[1] : undefined) + "</span></div>";
          if (current !== undefined) current = applyPatch(current, patch);
        }
      }
      html += '</div><h2>State after</h2><div id="state" class="tree"></div>';
      detail.innerHTML = html;
      const state = stateAfter(pos);
      if (state === undefined) $("state").innerHTML = '<p class="note">not in this file</p>';
      else $("state").appendChild(treeNode(null, state, true));
      const k = filteredIndex(pos);
      if (scroll && k >= 0) {
        const top = k * ROW;
        if (top < list.scrollTop || top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, top - 3 * ROW);
      }
      renderRows();
    }
    // The state before the first entry, where the Redux DevTools' first state (index 0) leads.
    function selectBase() {
      selected = -1;
      $("position").textContent = "0 / " + N;
      delete document.body.dataset.selected;
      history.replaceState(null, "", location.pathname + location.search);
      detail.innerHTML = "<h2>Base state</h2><pre>before #" + (N > 0 ? E[0][1] : "") + '</pre><div id="state" class="tree"></div>';
      $("state").appendChild(treeNode(null, D.base, true));
      renderRows();
    }
    function jumpToSequence(seq) {
      const pos = bySeq.get(seq);
      if (pos === undefined) { $("status").textContent = "#" + seq + " is not in this journal"; return; }
      if (filteredIndex(pos) < 0) { $("filter").value = ""; $("context").value = ""; applyFilter(); }
      select(pos, true);
    }

    $("types").textContent = D.stateType + " · " + D.actionType + (D.origin ? " · " + D.origin : "");
    for (let i = 0; i < D.contexts.length; i++) {
      const option = document.createElement("option");
      option.value = i;
      option.textContent = D.contexts[i];
      $("context").appendChild(option);
    }
    slider.max = Math.max(0, N - 1);
    slider.addEventListener("input", () => select(Number(slider.value), true));
    $("filter").addEventListener("input", applyFilter);
    $("context").addEventListener("change", applyFilter);
    list.addEventListener("scroll", renderRows);
    window.addEventListener("resize", renderRows);
    document.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-seq]");
      if (link) { event.preventDefault(); jumpToSequence(Number(link.dataset.seq)); return; }
      const row = event.target.closest(".row");
      if (row) select(Number(row.dataset.pos), false);
    });
    list.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      event.preventDefault();
      const k = filteredIndex(selected);
      const next = k < 0 ? 0 : k + (event.key === "ArrowDown" ? 1 : -1);
      if (next >= 0 && next < filtered.length) select(filtered[next], true);
    });
    // `#filter=text&select=N` (or `#cause=N`, which follows the cause of entry N) set the page up from its
    // address; N is the sequence number the list shows as #N.
    function honourFragment() {
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.has("filter")) $("filter").value = params.get("filter");
      applyFilter();
      if (params.has("select")) jumpToSequence(Number(params.get("select")));
      if (params.has("cause")) {
        const pos = bySeq.get(Number(params.get("cause")));
        if (pos !== undefined && E[pos][5] !== null) jumpToSequence(E[pos][5]);
      }
    }

    // Live: the inspector's page link (docs/formats/live-link.md). Lines arrive in batches; each is
    // turned into the rows, changes and full states the file viewer reads, and the list is drawn
    // once per frame, whatever the number of lines that came meanwhile.
    const live = { socket: null, token: "", instance: null, instances: [], next: 1, nextCommand: 1, pending: new Map(),
      positions: new Map(), effectRows: new Map(), drawScheduled: false, contextIndex: new Map() };
    function contextOf(name) {
      if (name === undefined || name === null) return -1;
      let index = live.contextIndex.get(name);
      if (index === undefined) {
        index = D.contexts.length;
        D.contexts.push(name);
        live.contextIndex.set(name, index);
        const option = document.createElement("option");
        option.value = index;
        option.textContent = name;
        $("context").appendChild(option);
      }
      return index;
    }
    function addRow(row) {
      E.push(row);
      D.patches.push(null);
      if (haystack !== null) haystack.push(haystackText(row));
      return E.length - 1;
    }
    function ingest(text) {
      const line = JSON.parse(text);
      if (line.entry) {
        const x = line.entry, c = x.cause || {};
        const pos = addRow([x.index, x.seq, x.time, contextOf(x.context), c.kind, c.parent ?? null, c.label ?? null, x.type,
          (x.durations || {}).chain || 0, JSON.stringify(x.action === undefined ? null : x.action), x.outcome,
          c.effect ?? null, x.replayable !== false]);
        bySeq.set(x.seq, pos);
        live.positions.set(x.index, pos);
        // A checkpoint is the state before its entry.
        if (x.checkpoint && x.checkpoint.state !== undefined) {
          if (pos === 0) D.base = x.checkpoint.state; else if (!full.has(pos - 1)) full.set(pos - 1, x.checkpoint.state);
        }
      } else if (line.state) {
        const pos = live.positions.get(line.state.index);
        if (pos === undefined) return;
        cache.delete(pos);
        if (line.state.full !== undefined) full.set(pos, line.state.full);
        if (line.state.patch !== undefined) D.patches[pos] = line.state.patch;
      } else if (line.effect) {
        const v = line.effect, c = v.cause || {};
        let row = live.effectRows.get(v.effect);
        if (row === undefined) {
          row = [v.effect, c.kind, c.label ?? null, c.parent ?? null, v.time, v.time, "running", null];
          live.effectRows.set(v.effect, row);
          if (row[3] !== null) {
            if (!effectsOf.has(row[3])) effectsOf.set(row[3], []);
            effectsOf.get(row[3]).push(row);
          }
        }
        if (v.phase !== "started") { row[5] = v.time; row[6] = v.phase; row[7] = v.error ?? null; }
      } else if (line.gap) {
        const last = E.length > 0 ? E[E.length - 1] : null;
        addRow([last ? last[0] : 0, 0, last ? last[2] : 0, -1, "gap", null, null, "gap", 0, "null", "gap", null, true,
          { dropped: line.gap.dropped, entries: line.gap.entries ?? "?" }]);
      }
    }
    function draw() {
      live.drawScheduled = false;
      const grew = E.length !== N;
      N = E.length;
      slider.max = Math.max(0, N - 1);
      if (grew || filtered.length !== N) applyFilter();
      if ($("follow").checked && N > 0) {
        list.scrollTop = spacer.offsetHeight;
        renderRows();
      }
      if (N > 0) document.body.dataset.last = E[N - 1][1];
      timing.drawn = performance.now();
      document.body.dataset.count = N;
    }
    function scheduleDraw() {
      if (live.drawScheduled) return;
      live.drawScheduled = true;
      requestAnimationFrame(draw);
    }
    function currentInstance() { return live.instances.find((i) => i.id === live.instance); }
    function showInstances() {
      const box = $("instances");
      box.innerHTML = "";
      for (const i of live.instances) {
        const item = document.createElement("div");
        item.className = "instance" + (i.id === live.instance ? " current" : "") + (i.connected ? "" : " offline");
        item.dataset.instance = i.id;
        item.innerHTML = '<div class="name">' + esc(i.name || i.id) + '</div><div class="meta">' + esc(i.host) + " · pid " +
          esc(i.pid) + " · " + esc(i.store) + "<br>" + esc(i.state) + " · " + esc(i.action) + "<br>" + esc(i.entries) +
          " entries</div>";
        item.addEventListener("click", () => subscribe(i.id));
        box.appendChild(item);
      }
      const current = currentInstance();
      const allows = current && current.connected ? current.allows : [];
      for (const button of document.querySelectorAll("#controls button[data-command]")) {
        button.disabled = !allows.includes(button.dataset.command);
      }
      $("dispatch-text").disabled = !allows.includes("dispatch");
      if (current) $("types").textContent = current.state + " · " + current.action + " · " + current.host + " pid " + current.pid;
      if (live.instance === null) {
        const first = live.instances.find((i) => i.connected) || live.instances[0];
        if (first) subscribe(first.id);
      }
    }
    function subscribe(id) {
      if (id === live.instance) return;
      live.instance = id;
      E.length = 0; D.patches.length = 0; D.base = null; full.clear(); cache.clear(); bySeq.clear(); effectsOf.clear();
      live.positions.clear(); live.effectRows.clear(); haystack = null; selected = -1; N = 0;
      live.next = 1;
      $("export").href = "/sessions/" + encodeURIComponent(id) + "/journal.json?token=" + encodeURIComponent(live.token);
      $("export").setAttribute("download", id + ".journal.json");
      applyFilter();
      showInstances();
      sendLine({ subscribe: { instance: id, from: 1 } });
    }
    function sendLine(object) {
      if (live.socket && live.socket.readyState === WebSocket.OPEN) live.socket.send(JSON.stringify(object) + "\n");
    }
    function showResult(text, failed) {
      $("result").textContent = text;
      $("result").className = failed ? "error" : "";
    }
    function command(name) {
      if (live.instance === null) return;
      const body = { instance: live.instance, id: live.nextCommand++, name: name };
      const e = selected >= 0 ? E[selected] : null;
      if (name === "jump" || name === "skip") {
        if (e === null || e[13]) { showResult(name + ": select an entry first", true); return; }
        if (name === "jump") body.position = e[0] + 1; else body.index = e[0];
      }
      if (name === "dispatch") {
        try { body.action = JSON.parse($("dispatch-text").value); }
        catch (error) { showResult("dispatch: not JSON: " + error.message, true); return; }
      }
      live.pending.set(body.id, name);
      showResult(name + "…", false);
      sendLine({ command: body });
    }
    // When the last batch of lines arrived and when the list last showed what had arrived (the
    // inspector's benchmark reads them), and the time spent reading lines.
    const timing = { arrived: 0, drawn: 0, reading: 0 };
    function received(message) {
      const arrived = performance.now();
      for (const text of message.split("\n")) {
        if (!text) continue;
        const line = JSON.parse(text);
        if (line.instances) { live.instances = line.instances; showInstances(); }
        else if (line.lines) {
          if (line.lines.instance !== live.instance) continue;
          for (const item of line.lines.lines) ingest(item);
          live.next = line.lines.from + line.lines.lines.length;
          timing.arrived = arrived;
          timing.reading += performance.now() - arrived;
          scheduleDraw();
        } else if (line.result) {
          const r = line.result, name = live.pending.get(r.id) || "command";
          live.pending.delete(r.id);
          if (r.error) showResult(name + ": " + r.error.kind + ": " + r.error.message, true);
          else showResult(name + ": done" + (r.position === null || r.position === undefined ? "" : " (position " + r.position + ")"), false);
        } else if (line.status && line.status.instance === live.instance) {
          const st = line.status;
          $("app-status").textContent = (st.paused ? "recording paused" : "recording") +
            (st.position === null || st.position === undefined ? "" : " · at " + st.position) + " · " + st.count + " entries";
        }
      }
    }
    function connect() {
      const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host +
        "/live/ui?token=" + encodeURIComponent(live.token));
      live.socket = socket;
      socket.onopen = () => {
        $("status").textContent = "connected";
        if (live.instance !== null) sendLine({ subscribe: { instance: live.instance, from: live.next } });
      };
      socket.onmessage = (event) => received(event.data);
      socket.onclose = (event) => {
        $("status").textContent = "disconnected" + (event.reason ? ": " + event.reason : "") + "; reconnecting…";
        setTimeout(connect, 1000);
      };
    }
    function startLive() {
      live.token = new URLSearchParams(location.search).get("token") || "";
      for (const id of ["controls", "instances"]) $(id).hidden = false;
      $("title").textContent = "Chronicle inspector";
      for (const button of document.querySelectorAll("#controls button[data-command]")) {
        button.disabled = true;
        button.addEventListener("click", () => command(button.dataset.command));
      }
      $("dispatch-text").addEventListener("keydown", (event) => { if (event.key === "Enter") command("dispatch"); });
      $("follow").addEventListener("change", () => { if ($("follow").checked) scheduleDraw(); });
      // Scrolling up stops following; scrolling back to the end follows again.
      list.addEventListener("wheel", () => {
        setTimeout(() => { $("follow").checked = list.scrollTop + list.clientHeight >= list.scrollHeight - ROW; }, 50);
      });
      applyFilter();
      connect();
    }
    if (LIVE) startLive(); else honourFragment();

    // The Redux DevTools extension, when the browser has it: the journal becomes one of its instances,
    // each entry an action with the state recorded after it. The extension lists what `send` gives it
    // as is (an instance made by `connect` has no store to recompute states with), and its jumps select
    // entries here. The instance declares `features.import: true`, so a lifted-state file imported into
    // it is shown as the file holds it, recorded states included (docs/formats/redux-devtools.md).
    function fluxAction(e) {
      const meta = { seq: e[1], index: e[0] };
      if (e[3] >= 0) meta.context = D.contexts[e[3]];
      const cause = { kind: e[4] };
      if (e[5] !== null) cause.parent = e[5];
      if (e[11] !== undefined && e[11] !== null) cause.effect = e[11];
      if (e[6] !== null) cause.label = e[6];
      meta.cause = cause;
      meta.replayable = e[12] !== false;
      meta.outcome = e[10];
      const at = bySeq.get(e[1]), pair = D.entrySites && at !== undefined ? D.entrySites[at] : null;
      const site = (k) => ({ fileID: D.sites[k][0], line: D.sites[k][1], function: D.sites[k][2] });
      if (pair && pair[0] >= 0) meta.site = site(pair[0]);
      if (pair && pair[1] >= 0) meta.effectSite = site(pair[1]);
      return { type: e[7], payload: JSON.parse(e[9]), meta: meta };
    }
    function connectDevTools() {
      const extension = window.__REDUX_DEVTOOLS_EXTENSION__;
      if (!extension || typeof extension.connect !== "function") return;
      // Only a page holding every state has states to show: the extension has no reducer to compute them.
      if (D.base === null || D.patches.some((patches) => patches === null)) return;
      const devTools = extension.connect({
        name: D.title,
        features: { jump: true, import: true, export: true },
        // A denylist that matches nothing takes the place of the extension's own action filter, which
        // would drop actions and so shift every position after them: position k is entry k here.
        actionsDenylist: "(?!)",
      });
      devTools.subscribe((message) => {
        if (message.type !== "DISPATCH" || !message.payload) return;
        const action = message.payload;
        // Its positions: 0 is the base state, k the state after entry k; action ids are the same numbers.
        const position = action.type === "JUMP_TO_STATE" ? action.index
          : action.type === "JUMP_TO_ACTION" ? action.actionId : undefined;
        if (typeof position !== "number" || position < 0 || position > N) return;
        if (position === 0) { selectBase(); return; }
        jumpToSequence(E[position - 1][1]);
      });
      devTools.init(D.base);
      // One working state, changed entry by entry: the extension serializes what `send` gives it before
      // it returns, so no state is held twice. Sent in slices, so the page stays responsive meanwhile.
      let state = clone(D.base), position = 0;
      function sendSlice() {
        for (const end = Math.min(N, position + 200); position < end; position++) {
          for (const patch of D.patches[position]) state = applyPatch(state, patch);
          devTools.send(fluxAction(E[position]), state);
        }
        if (position < N) setTimeout(sendSlice, 0);
      }
      sendSlice();
    }
    try { connectDevTools(); } catch (error) { console.warn("Redux DevTools:", error); }
    </script>
    </body>
    </html>
    """#
}

extension JournalViewer {
  /// The viewer page with no journal in it, which connects live: served by the inspector
  /// (`chronicle-inspector`), it takes the token from its address, lists the app instances
  /// connected and stored, and shows the chosen one's entries as they arrive
  /// (docs/formats/live-link.md).
  public static func liveHTML(title: String = "Chronicle inspector") -> String {
    ViewerPage.html(title: title, data: "null")
  }
}
