"use strict";
// Reads /actuator/matviews every second and draws it; looks keys up through the lookup API.
(() => {
  const endpoint = document.body.dataset.endpoint;
  const context = document.body.dataset.context;
  const $ = (id) => document.getElementById(id);
  const state = { views: [], basePath: null };
  const STATUS = { 200: "found", 400: "bad request", 404: "not found", 503: "unavailable", 504: "timed out" };

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, value));
    children.forEach((child) => node.append(child));
    return node;
  }

  function replace(node, ...children) {
    node.replaceChildren(...children);
  }

  function bytes(n) {
    const units = ["B", "KB", "MB", "GB", "TB"];
    let unit = 0;
    while (n >= 1024 && unit < units.length - 1) {
      n /= 1024;
      unit++;
    }
    return `${n.toFixed(unit === 0 || n >= 100 ? 0 : 1)} ${units[unit]}`;
  }

  function seconds(duration) {
    if (typeof duration === "number") return duration;
    const parts = /^PT?(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(duration || "");
    if (!parts) return NaN;
    const [d, h, m, s] = parts.slice(1).map((part) => Number(part || 0));
    return ((d * 24 + h) * 60 + m) * 60 + s;
  }

  function time(duration) {
    const s = seconds(duration);
    if (!(s > 0)) return s === 0 ? "0s" : String(duration);
    for (const [size, unit] of [[86400, "d"], [3600, "h"], [60, "m"]]) {
      if (s % size === 0) return `${s / size}${unit}`;
    }
    return `${s}s`;
  }

  function windowText(window) {
    if (!window) return "–";
    const size = time(window.size);
    const shape = window.type === "session" ? `session, gap ${size}`
      : window.type === "hopping" ? `hopping ${size} every ${time(window.advance)}`
      : `tumbling ${size}`;
    return `${shape} · grace ${time(window.grace)} · kept ${time(window.retention)}`;
  }

  function bar(percent, text, done) {
    const fill = el("div", { class: done ? "fill done" : "fill" });
    fill.style.width = `${Math.max(0, Math.min(100, percent))}%`;
    return el("div", { class: "bar", role: "img", "aria-label": text }, fill,
      el("span", { class: "text" }, text));
  }

  function renderStatus(m) {
    const local = m.instances.find((instance) => instance.local);
    const served = local ? `Served by ${local.host} ★, one of ${m.instances.length} instances`
      : "Kafka Streams is not running or is rebalancing: no instances known";
    replace($("status"), `${served} · updated ${new Date().toLocaleTimeString()}`);
  }

  function renderViews(m) {
    replace($("views").tBodies[0], ...m.views.map((view) => el("tr", { "data-view": view.name },
      el("td", {}, el("strong", {}, view.name), el("div", { class: "small" },
        `${view.keyType} → ${view.valueType}`)),
      el("td", {}, view.kind),
      el("td", { class: "mono" }, view.sourceTopic),
      el("td", { class: "mono" }, view.storeName, el("div", { class: "small" }, view.changelogTopic)),
      el("td", {}, windowText(view.window)),
      el("td", { class: "number" }, bytes(view.diskBytes)),
      el("td", { class: "number" }, String(m.deadLetters[view.name] || 0)))));
    const orphans = m.deadLetters.none;
    if (orphans) {
      $("views").tBodies[0].append(el("tr", {}, el("td", { colspan: "7", class: "small" },
        `${orphans} dead letters of records that belong to no view`)));
    }
  }

  function partitionCount(m, view) {
    let count = 0;
    m.instances.forEach((instance) => [instance.active, instance.standby].forEach((held) =>
      (held[view] || []).forEach((p) => { count = Math.max(count, p + 1); })));
    m.lags.filter((lag) => lag.view === view).forEach((lag) => { count = Math.max(count, lag.partition + 1); });
    return count;
  }

  function cell(instance, m, view, partition) {
    const restoring = instance.local && m.lags.some((lag) => lag.view === view
      && lag.partition === partition && lag.role === "active" && lag.lag !== 0);
    const active = (instance.active[view] || []).includes(partition);
    const standby = (instance.standby[view] || []).includes(partition);
    const [kind, letter, words] = restoring ? ["restoring", "R", "active, restoring"]
      : active ? ["active", "A", "active"] : standby ? ["standby", "S", "standby"] : ["", "·", "not held"];
    return el("td", { "data-view": view, "data-partition": String(partition) },
      el("span", { class: `cell ${kind}`, title: `${view} partition ${partition}: ${words}` }, letter));
  }

  function renderInstances(m) {
    const widest = Math.max(0, ...m.views.map((view) => partitionCount(m, view.name)));
    const partitions = [...Array(widest).keys()];
    replace($("instances"), ...m.instances.map((instance) => {
      const title = instance.local ? `★ ${instance.host} (this page)`
        : el("a", { href: `${location.protocol}//${instance.host}${context}/matview` }, instance.host);
      return el("div", { class: instance.local ? "instance local" : "instance", "data-host": instance.host },
        el("h3", {}, title),
        el("table", {},
          el("thead", {}, el("tr", {}, el("th", {}, "view"), ...partitions.map((p) => el("th", {}, `p${p}`)))),
          el("tbody", {}, ...m.views.map((view) => el("tr", {}, el("td", { class: "small" }, view.name),
            ...partitions.map((p) => cell(instance, m, view.name, p)))))));
    }));
  }

  function lagText(lag) {
    const rate = `${lag.recordsPerSecond.toLocaleString("en")} records/s`;
    const eta = lag.etaSeconds != null ? ` · ETA ${time(lag.etaSeconds)}` : "";
    const restored = lag.currentOffset - lag.startOffset;
    if (lag.endOffset == null) return [0, `${lag.role} · end of the changelog not known yet`];
    const total = lag.endOffset - lag.startOffset;
    const percent = lag.lag === 0 || total <= 0 ? 100 : Math.floor((restored * 100) / total);
    if (lag.role === "standby") {
      return [percent, `standby ${percent} % · lag ${lag.lag.toLocaleString("en")} · ${rate}${eta}`];
    }
    if (lag.lag === 0) return [100, `restored 100 % · ${restored.toLocaleString("en")} records`];
    return [percent, `restoring ${percent} % · ${rate}${eta}`];
  }

  function renderLags(m) {
    if (m.lags.length === 0) {
      replace($("lags"), el("p", { class: "small" }, "No restore or standby here since this instance started."));
      return;
    }
    replace($("lags"), ...m.lags.map((lag) => {
      const [percent, text] = lagText(lag);
      return el("div", { class: "lag", "data-view": lag.view, "data-partition": String(lag.partition) },
        el("span", { class: "small" }, `${lag.view} p${lag.partition} ${lag.role}`),
        bar(percent, text, percent >= 100));
    }));
  }

  function renderResources(m) {
    const memory = m.rocksdbMemory;
    const memoryPart = memory
      ? bar((memory.usedBytes * 100) / memory.boundBytes, `RocksDB ${bytes(memory.usedBytes)} of `
        + `${bytes(memory.boundBytes)} (${Math.round((memory.usedBytes * 100) / memory.boundBytes)} %)`
        + ` · ${memory.openStores} stores`, false)
      : el("p", {}, "RocksDB memory is not bounded (matview.rocksdb.bounded=false).");
    const disk = m.disk;
    const low = disk.freeBytes < disk.minFreeBytes ? "LOW: " : "";
    const used = m.views.reduce((sum, view) => sum + view.diskBytes, 0);
    replace($("resources"), el("div", { class: "resource" }, memoryPart),
      el("p", { class: "resource" }, `${low}${bytes(disk.freeBytes)} free for the state dir `,
        el("code", {}, disk.stateDir), ` (health wants ${bytes(disk.minFreeBytes)}); views use `
        + `${bytes(used)} of it here.`));
  }

  function sparkline(values, label) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    const top = Math.max(...values, 0);
    svg.setAttribute("class", "spark");
    svg.setAttribute("viewBox", `0 0 ${Math.max(values.length - 1, 1)} 20`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `${label}, highest ${top.toFixed(2)}`);
    const base = document.createElementNS(svg.namespaceURI, "line");
    Object.entries({ x1: 0, y1: 19.5, x2: values.length, y2: 19.5 }).forEach(([k, v]) => base.setAttribute(k, v));
    const line = document.createElementNS(svg.namespaceURI, "polyline");
    line.setAttribute("points", values.map((v, i) => `${i},${19 - (top > 0 ? (v * 18) / top : 0)}`).join(" "));
    line.setAttribute("vector-effect", "non-scaling-stroke");
    svg.append(base, line);
    return svg;
  }

  function renderLookups(m) {
    if (!m.lookups) {
      replace($("lookups").tBodies[0], el("tr", {}, el("td", { colspan: "5" }, "Lookups are not counted here (no Micrometer).")));
      return;
    }
    const perSecond = 1000 / m.lookups.bucketMillis;
    replace($("lookups").tBodies[0], ...Object.entries(m.lookups.routes).map(([route, data]) => {
      const rates = data.counts.map((count) => count * perSecond);
      const last = rates.length - 1;
      return el("tr", { "data-route": route }, el("th", {}, route),
        el("td", {}, sparkline(rates, `${route} lookups per second`)),
        el("td", { class: "number" }, `${(rates[last] || 0).toFixed(1)}/s`),
        el("td", {}, sparkline(data.meanMillis, `${route} mean milliseconds`)),
        el("td", { class: "number" }, `${(data.meanMillis[last] || 0).toFixed(2)} ms`));
    }));
  }

  function renderLookupForm(m) {
    state.basePath = m.lookupBasePath;
    $("lookup-submit").disabled = !state.basePath;
    const names = m.views.map((view) => view.name).join();
    if (names === state.views.map((view) => view.name).join()) return;
    state.views = m.views;
    const chosen = $("lookup-view").value;
    replace($("lookup-view"), ...m.views.map((view) => el("option", { value: view.name }, view.name)));
    if (chosen) $("lookup-view").value = chosen;
    chooseView();
  }

  function chooseView() {
    const view = state.views.find((v) => v.name === $("lookup-view").value);
    $("lookup").classList.toggle("windowed", !!view && view.kind !== "table");
  }

  async function lookUp(event) {
    event.preventDefault();
    const view = state.views.find((v) => v.name === $("lookup-view").value);
    if (!view || !state.basePath) return;
    // The key goes in the query, which carries any key, a "/" too.
    const query = new URLSearchParams({ key: $("lookup-key").value });
    let url = `${context}${state.basePath}/${encodeURIComponent(view.name)}/key`;
    if (view.kind !== "table") {
      if ($("lookup-from").value) query.set("from", $("lookup-from").value);
      if ($("lookup-to").value) query.set("to", $("lookup-to").value);
      url += "/windows";
    }
    url += `?${query}`;
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const text = await response.text();
    let json = {};
    try { json = JSON.parse(text); } catch (e) { /* shown as it came */ }
    const header = (name) => response.headers.get(name) || "–";
    const value = "value" in json ? JSON.stringify(json.value)
      : Array.isArray(json.windows) ? `${json.windows.length} windows` : json.detail || "–";
    replace($("answer-status"), `${response.status} ${STATUS[response.status] || ""}`);
    replace($("answer-value"), value);
    replace($("answer-served-by"), header("Matview-Served-By"));
    replace($("answer-replica"), header("Matview-Replica"));
    replace($("answer-lag"), header("Matview-Offset-Lag"));
    replace($("answer-position"), header("Matview-Position"));
    replace($("answer-body"), Object.keys(json).length ? JSON.stringify(json, null, 2) : text);
    $("answer").hidden = false;
  }

  let following = null;

  function follow() {
    if (following) {
      following.close();
      following = null;
      $("follow").textContent = "Follow live";
      replace($("changes-state"), "(stopped)");
      return;
    }
    const view = state.views.find((v) => v.name === $("lookup-view").value);
    if (!view || !state.basePath || !$("lookup-key").value) return;
    const url = `${context}${state.basePath}/${encodeURIComponent(view.name)}/key/changes?`
      + new URLSearchParams({ key: $("lookup-key").value });
    replace($("changes-list"));
    replace($("changes-state"), "(connecting)");
    $("changes").hidden = false;
    $("follow").textContent = "Stop";
    following = new EventSource(url);
    following.onopen = () => replace($("changes-state"), "(live)");
    following.onerror = () => replace($("changes-state"), "(reconnecting)");
    ["value", "deleted", "windows", "window", "window-deleted", "skipped", "reconnect", "dropped"]
      .forEach((name) => following.addEventListener(name, (event) => {
        let data = {};
        try { data = JSON.parse(event.data); } catch (e) { /* shown as it came */ }
        const shown = "value" in data ? JSON.stringify(data.value)
          : Array.isArray(data.windows) ? `${data.windows.length} windows` : data.reason || "";
        const item = el("li", { class: "change" }, `${name} ${shown}`);
        if (event.lastEventId) item.title = event.lastEventId;
        $("changes-list").prepend(item);
        while ($("changes-list").children.length > 20) $("changes-list").lastChild.remove();
      }));
  }

  async function poll() {
    try {
      const response = await fetch(endpoint, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) throw new Error(`answered ${response.status}`);
      const m = await response.json();
      m.deadLetters = m.deadLetters || {};
      m.instances.forEach((instance) => Object.assign(instance,
        { active: instance.active || {}, standby: instance.standby || {} }));
      [renderStatus, renderViews, renderInstances, renderLags, renderResources, renderLookups,
        renderLookupForm].forEach((render) => render(m));
    } catch (e) {
      replace($("status"), `Could not read ${endpoint}: ${e.message}`);
    }
    setTimeout(poll, 1000);
  }

  $("lookup").addEventListener("submit", lookUp);
  $("follow").addEventListener("click", follow);
  $("lookup-view").addEventListener("change", chooseView);
  if (endpoint) {
    poll();
  } else {
    $("hint").hidden = false;
    replace($("status"), "The matviews endpoint is not exposed.");
  }
})();
