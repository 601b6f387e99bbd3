// srcprof live: the page. It reads /api/v1/stream (an "update" event per
// snapshot, a "history" event first) and draws the table, the sparklines,
// the frame-time graph and a source's detail with its own canvas code; it
// asks for nothing but this server (the page's CSP allows nothing else).
// The table shows time, or (the Work switch, W; work.js) each source's
// work per frame as the GPU counted it.
'use strict';

const HISTORY_MAX = 300;        // points kept per series (the server keeps as many)
const ROWS_SHOWN_MAX = 500;     // rows drawn at once; the rest are counted
const PERFETTO = 'https://ui.perfetto.dev';

// The table's columns, as the demo's table: key, label, unit kind, and
// where the value comes from. 'time' columns pick us / ms / s from their
// largest value, as the overlay does.
const COLUMNS = [
  {key: 'source', label: 'source', kind: 'text'},
  {key: 'type', label: 'type', kind: 'text'},
  {key: 'tick', label: 'tick', kind: 'time', get: r => r.tick_avg_ns},
  {key: 'tick_max', label: 'tick max', kind: 'time', get: r => r.tick_max_ns},
  {key: 'render', label: 'render', kind: 'time', get: r => r.render_avg_ns},
  {key: 'render_max', label: 'rend max', kind: 'time', get: r => r.render_max_ns},
  {key: 'render_sum', label: 'rend sum', kind: 'time', get: r => r.render_sum_ns},
  {key: 'render_p50', label: 'rend p50', kind: 'time', p50: true, get: r => r.render_sum_p50_ns},
  {key: 'gpu', label: 'GPU', kind: 'time', gpu: true, get: r => r.render_gpu_avg_ns},
  {key: 'gpu_max', label: 'GPU max', kind: 'time', gpu: true, get: r => r.render_gpu_max_ns},
  {key: 'gpu_sum', label: 'GPU sum', kind: 'time', gpu: true, get: r => r.render_gpu_sum_ns},
  {key: 'gpu_ci', label: 'sum +-', kind: 'pct', gpu: true, get: ciPercent},
  {key: 'gpu_p50', label: 'GPU p50', kind: 'time', gpu: true, p50: true, get: r => r.render_gpu_sum_p50_ns},
  {key: 'gpu_n', label: 'GPU n', kind: 'count', gpu: true, get: r => r.gpu_samples},
  {key: 'in_fps', label: 'in fps', kind: 'fps', fps: true, get: r => r.async_input_fps},
  {key: 'out_fps', label: 'out fps', kind: 'fps', fps: true, get: r => r.async_rendered_fps},
  {key: 'spark_gpu', label: 'GPU trend', kind: 'spark', series: 'gpu'},
  {key: 'spark_cpu', label: 'CPU trend', kind: 'spark', series: 'cpu'},
];

const state = {
  snap: null,          // the newest snapshot
  shown: null,         // the snapshot the table shows (held while paused)
  paused: false,
  sortKey: 'gpu_p50',  // the demo's default order
  sortDesc: true,
  work: false,         // the table shows work per frame, not time
  workSortKey: 'work_fs_invocations',
  workSortDesc: true,
  filter: '',
  type: '',
  types: new Set(),
  selected: null,      // a source's id: its detail is shown
  hist: new Map(),     // id -> {t: [], gpu: [], cpu: []}
  frames: {t: [], ms: []},
  lastUpdate: 0,       // Date.now() when the last update arrived
  latencyMs: [],       // arrival minus the snapshot's time, for the tests
  updates: 0,
  trace: null,         // the last capture: {name, buffer}
  source: null,        // the EventSource
};
window.srcprofLive = state; // for tests and the curious: read only

function $(id) { return document.getElementById(id); }

function ciPercent(r) {
  if (r.render_gpu_sum_ci95_ns === undefined || !(r.gpu_samples > 1) || !r.render_gpu_sum_ns)
    return null;
  return 100 * r.render_gpu_sum_ci95_ns / r.render_gpu_sum_ns;
}

// --- Numbers as the overlay writes them -------------------------------

// The unit of a time column from its largest value, ns: where rounding to
// the decimals shown would print 1000 in the smaller unit.
function timeUnit(maxNs) {
  if (maxNs < 999950) return {name: 'us', ns: 1e3, dec: 1};
  if (maxNs < 999999500) return {name: 'ms', ns: 1e6, dec: 3};
  return {name: 's', ns: 1e9, dec: 3};
}

function gpuOn(snap) {
  return snap.profiler.enabled && snap.profiler.gpu_enabled;
}

// The text of one cell: '-', 'off', 'wait', '<X' or the figure.
function cellText(col, r, unit, snap) {
  if (col.kind === 'text') return col.key === 'source' ? r.source : (r.type || '');
  if (!r.have || (col.fps && !r.async)) return '-';
  if (col.kind === 'frames') return r.work ? String(r.work.frames) : '0';
  if (col.kind === 'work') return workText(r.work, col.counter);
  if (col.gpu && !gpuOn(snap)) return 'off';
  if (col.gpu && col.key !== 'gpu_n' && !r.gpu_samples) return 'wait';
  const v = col.get(r);
  if (col.p50 && (v === undefined || v === null)) return '-';
  if (col.kind === 'count') return String(v);
  if (col.kind === 'pct') return v === null ? '-' : v.toFixed(1);
  if (col.kind === 'fps') return v.toFixed(1);
  if (v === undefined || v === null) return '-';
  const res = snap.profiler.gpu_resolution_ns;
  const k = Math.pow(10, unit.dec);
  if (col.gpu && v > 0 && v < res)
    return '<' + (Math.ceil(res / unit.ns * k) / k).toFixed(unit.dec);
  if (v > 0 && v / unit.ns < 0.5 / k)
    return '<' + (1 / k).toFixed(unit.dec);
  return (v / unit.ns).toFixed(unit.dec);
}

// What a column sorts by: its figure, with "-", "off" and "wait" last.
function sortValue(col, r) {
  if (col.kind === 'text') return col.key === 'source' ? r.source : (r.type || '');
  if (!r.have || !col.get) return -Infinity;
  if (col.gpu && col.key !== 'gpu_n' && !r.gpu_samples) return -Infinity;
  const v = col.get(r);
  return v === undefined || v === null ? -Infinity : v;
}

// The demo's rule: GPU orders sort by the CPU figure of the same kind
// while GPU timing is off.
function effectiveSortKey(snap) {
  if (state.work) return state.workSortKey;
  if (gpuOn(snap)) return state.sortKey;
  const fallback = {gpu_p50: 'render_p50', gpu_sum: 'render_sum', gpu: 'render',
                    gpu_max: 'render_max', gpu_ci: 'render_sum', gpu_n: 'render_sum'};
  return fallback[state.sortKey] || state.sortKey;
}

function fmtMs(ns) { return (ns / 1e6).toFixed(2); }

// --- History ------------------------------------------------------------

function push(arr, v) {
  arr.push(v);
  if (arr.length > HISTORY_MAX) arr.splice(0, arr.length - HISTORY_MAX);
}

function histOf(id) {
  let h = state.hist.get(id);
  if (!h) {
    h = {t: [], gpu: [], cpu: []};
    state.hist.set(id, h);
  }
  return h;
}

function onHistory(h) {
  state.frames = {t: h.time_ms.slice(), ms: h.frame_ms.slice()};
  state.hist = new Map();
  for (const s of h.sources) {
    const t = h.time_ms.slice(s.from);
    state.hist.set(s.id, {t: t.slice(0, s.gpu_sum_us.length), gpu: s.gpu_sum_us.slice(),
                          cpu: s.cpu_sum_us.slice()});
  }
  state.historySeq = h.seq;
}

function recordUpdate(snap) {
  if (state.historySeq && snap.seq <= state.historySeq) return; // already in the history
  push(state.frames.t, snap.time_ms);
  push(state.frames.ms, snap.frame.mean_ns === null ? null : snap.frame.mean_ns / 1e6);
  const live = new Set();
  for (const r of snap.sources) {
    live.add(r.id);
    const h = histOf(r.id);
    push(h.t, snap.time_ms);
    push(h.gpu, r.have && r.gpu_samples && gpuOn(snap) ? r.render_gpu_sum_ns / 1e3 : null);
    push(h.cpu, r.have ? r.render_sum_ns / 1e3 : null);
  }
  for (const id of state.hist.keys())
    if (!live.has(id)) state.hist.delete(id);
}

// --- Drawing ------------------------------------------------------------

function clear(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const g = canvas.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, canvas.clientWidth, canvas.clientHeight);
  return g;
}

function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

// A sparkline of `values` (nulls are gaps), scaled to its own maximum.
function sparkline(canvas, values, color) {
  const g = clear(canvas);
  const w = canvas.clientWidth, h = canvas.clientHeight;
  let max = 0;
  for (const v of values) if (v !== null && v > max) max = v;
  if (!values.length || max <= 0) return;
  g.strokeStyle = color;
  g.lineWidth = 1.2;
  g.beginPath();
  let pen = false;
  const n = Math.max(values.length, 2);
  values.forEach((v, i) => {
    if (v === null) { pen = false; return; }
    const x = (i / (n - 1)) * (w - 2) + 1, y = h - 2 - (v / max) * (h - 4);
    if (pen) g.lineTo(x, y); else g.moveTo(x, y);
    pen = true;
  });
  g.stroke();
}

// A chart of series against time, with horizontal lines at `marks` (value,
// label, colour) and a labelled axis in `unit`; `fixedMax` (when not 0)
// is the top of the scale, higher values clipped to it.
function timeChart(canvas, t, series, marks, unit, fixedMax) {
  const g = clear(canvas);
  const w = canvas.clientWidth, h = canvas.clientHeight;
  const left = 48, bottom = 16, top = 6;
  const plotW = w - left - 8, plotH = h - top - bottom;
  if (t.length < 1 || plotW < 10 || plotH < 10) return;
  let max = fixedMax || 0;
  if (!fixedMax) {
    for (const s of series) for (const v of s.values) if (v !== null && v > max) max = v;
    for (const m of marks) if (m.value * 1.1 > max && m.value < max * 4) max = m.value * 1.1;
  }
  if (max <= 0) max = 1;
  const t0 = t[0], t1 = t[t.length - 1] > t0 ? t[t.length - 1] : t0 + 1;
  const X = ms => left + ((ms - t0) / (t1 - t0)) * plotW;
  const Y = v => top + plotH - Math.min(v / max, 1) * plotH;
  g.font = '11px ui-monospace, monospace';
  g.fillStyle = cssVar('--dim');
  g.strokeStyle = cssVar('--line');
  g.lineWidth = 1;
  for (let i = 0; i <= 2; i++) {
    const v = (max * i) / 2, y = Y(v);
    g.beginPath(); g.moveTo(left, y); g.lineTo(left + plotW, y); g.stroke();
    g.fillText(v.toFixed(v < 10 ? 1 : 0), 2, y + 4);
  }
  g.fillText(unit, 2, h - 3);
  const minutes = (t1 - t0) / 60000;
  g.fillText(minutes >= 1 ? `last ${minutes.toFixed(1)} min` : `last ${((t1 - t0) / 1000).toFixed(0)} s`,
             left, h - 3);
  for (const m of marks) {
    if (m.value > max) continue;
    g.strokeStyle = m.color;
    g.setLineDash([5, 4]);
    g.beginPath(); g.moveTo(left, Y(m.value)); g.lineTo(left + plotW, Y(m.value)); g.stroke();
    g.setLineDash([]);
    g.fillStyle = m.color;
    g.fillText(m.label, left + plotW - g.measureText(m.label).width - 2, Y(m.value) - 3);
  }
  for (const s of series) {
    g.strokeStyle = s.color;
    g.lineWidth = 1.5;
    g.beginPath();
    let pen = false;
    s.values.forEach((v, i) => {
      if (v === null || i >= t.length) { pen = false; return; }
      const x = X(t[i]), y = Y(v);
      if (pen) g.lineTo(x, y); else g.moveTo(x, y);
      pen = true;
    });
    g.stroke();
  }
}

function drawGraph(snap) {
  const fps = snap.target_fps || 60;
  const budget = 1000 / fps;
  const ms = state.frames.ms;
  const known = ms.filter(v => v !== null).sort((a, b) => a - b);
  const pct = q => known.length ? known[Math.min(known.length - 1, Math.floor(known.length * q))] : 0;
  // Scaled as the overlay's graph: to the 95th percentile (a start-up
  // frame does not flatten the rest), longer ones clipped and counted,
  // the budget lines always in view.
  const top = Math.max(pct(0.95) * 1.15, 2 * budget * 1.15);
  const clipped = known.filter(v => v > top).length;
  $('graph-caption').textContent =
    `frame time, ms (the mean over each update)  p95 ${pct(0.95).toFixed(1)}  max ` +
    `${known.length ? known[known.length - 1].toFixed(1) : '-'}` +
    (clipped ? ` (${clipped} above the scale)` : '') +
    `  -- ${budget.toFixed(1)} (${fps} fps)  -- ${(2 * budget).toFixed(1)} (${(fps / 2).toFixed(0)} fps)`;
  timeChart($('graph'), state.frames.t, [{values: ms, color: cssVar('--cpu')}],
            [{value: budget, label: `${budget.toFixed(1)} ms`, color: cssVar('--gpu')},
             {value: 2 * budget, label: `${(2 * budget).toFixed(1)} ms`, color: cssVar('--warn')}],
            'ms', top);
}

function header(snap) {
  const p = snap.profiler, s = snap.sampling;
  $('program').textContent = snap.program;
  $('where').textContent = `${snap.api} on ${snap.device}${snap.software_device ? ' (software device)' : ''}`;
  let timing;
  if (!p.enabled) {
    timing = 'profiler off: no figures (P in the demo turns it on)';
  } else if (!gpuOn(snap)) {
    timing = 'GPU timing: off';
  } else {
    timing = `GPU timing: ${p.gpu_mode}`;
    if (s.costly) timing += `, 1 frame in ${s.timed_every}`;
    if (p.gpu_resolution_ns > 1) timing += `, resolution ${(p.gpu_resolution_ns / 1e3).toFixed(1)} us`;
    timing += `   dropped frames: ${p.gpu_frames_disjoint}`;
    if (s.burst) timing += `   measuring ${s.burst_samples}/${s.burst_target}`;
    if (s.tracing) timing += '   trace recording';
  }
  $('timing').textContent = timing;
  const mean = snap.frame.mean_ns;
  const rate = mean ? `${(1e9 / mean).toFixed(1)} fps  ${fmtMs(mean)} ms/frame   ` : '';
  $('rates').textContent = `${rate}${snap.sources_total} sources, window ${p.window_capacity} frames, ` +
    `${p.frames_collected} collected` + (state.paused ? '   PAUSED (the table holds still)' : '');
  threadsLine(snap);
  const busy = $('busy');
  busy.hidden = !snap.machine.busy;
  if (snap.machine.busy)
    busy.textContent = `machine busy: other processes used ${snap.machine.others_pct.toFixed(0)}% of the CPU; ` +
      (snap.software_device ? 'software-device GPU times are inflated' : 'CPU times may be inflated');
}

// The profiler's queues, by number.
function queueNames(snap) {
  return (snap.profiler.queues || []).map(q => q.name);
}

function severalQueues(snap) {
  return (snap.profiler.gpu_queues || 0) > 1;
}

function bytesText(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}

// What the profiler lost to threads and queues, each counter in words;
// shown only where one is not 0.
const LOST = [
  ['threads_refused', 'threads refused (beyond the profiler\'s thread limit: not profiled)'],
  ['records_late', 'ticks and renders late (recorded after their frame was collected: dropped)'],
  ['records_dropped', 'ticks and renders dropped (a thread\'s buffer was full)'],
  ['gpu_timers_unavailable', 'GPU timers unavailable (a command buffer late: those renders lost their GPU sample)'],
  ['gpu_timers_misplaced', 'GPU timers misplaced (ended on another thread or command buffer than they began in)'],
  ['gpu_timers_denied', 'GPU timers denied (a frame\'s timers all taken: those renders lost their GPU sample)'],
];

// The queues and the recording threads, when there are several; what
// they lost, as a warning, when anything.
function threadsLine(snap) {
  const p = snap.profiler;
  const el = $('threads');
  const parts = [];
  if (severalQueues(snap)) parts.push(`queues: ${queueNames(snap).join(', ')}`);
  if (p.threads > 0)
    parts.push(`${p.threads} thread${p.threads === 1 ? '' : 's'} recording besides the graphics thread` +
               ` (buffers ${bytesText(p.thread_bytes || 0)})`);
  el.hidden = !parts.length;
  el.textContent = parts.join(' \u00b7 ');
  const lost = LOST.filter(([k]) => p[k] > 0).map(([k, text]) => `${p[k]} ${text}`);
  $('lost').hidden = !lost.length;
  $('lost').textContent = lost.length ? 'lost: ' + lost.join('; ') : '';
}

// A source's GPU sum on each queue, in words: "graphics 5.895 + compute
// 0.590 ms"; '' without queue figures.
function queueSumsText(r) {
  if (!r.queues || !r.queues.length) return '';
  // In the unit of the source's GPU sum, which they add up to.
  let max = r.render_gpu_sum_ns || 0;
  for (const q of r.queues) max = Math.max(max, q.render_gpu_sum_ns);
  const u = timeUnit(max);
  return r.queues.map(q => `${q.name} ${(q.render_gpu_sum_ns / u.ns).toFixed(u.dec)}`).join(' + ') +
    ` ${u.name}`;
}

function visibleRows(snap) {
  const f = state.filter.toLowerCase();
  const rows = snap.sources.filter(r =>
    (!f || r.source.toLowerCase().includes(f)) && (!state.type || r.type === state.type));
  const key = effectiveSortKey(snap);
  const cols = columns();
  const col = cols.find(c => c.key === key) || cols[0];
  const dir = (state.work ? state.workSortDesc : state.sortDesc) ? -1 : 1;
  rows.sort((a, b) => {
    if (a.have !== b.have) return a.have ? -1 : 1;
    const x = sortValue(col, a), y = sortValue(col, b);
    if (x < y) return -dir;
    if (x > y) return dir;
    return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
  });
  return rows;
}

// The table's columns: time's, or work's.
function columns() {
  return state.work ? WORK_COLUMNS : COLUMNS;
}

function buildHead(units) {
  const labels = $('labels'), unitRow = $('units');
  const cols = columns();
  if (!labels.children.length) {
    for (const c of cols) {
      const th = document.createElement('th');
      th.textContent = c.label;
      th.dataset.key = c.key;
      if (c.kind === 'text' || c.kind === 'spark') th.className = 'text';
      if (c.kind !== 'spark') th.addEventListener('click', () => sortBy(c.key));
      labels.appendChild(th);
      const u = document.createElement('th');
      if (c.kind === 'text' || c.kind === 'spark') u.className = 'text';
      unitRow.appendChild(u);
    }
  }
  const key = state.shown ? effectiveSortKey(state.shown) : state.sortKey;
  const desc = state.work ? state.workSortDesc : state.sortDesc;
  cols.forEach((c, i) => {
    const th = labels.children[i];
    th.classList.toggle('sorted', c.key === key);
    th.textContent = c.label + (c.key === key ? (desc ? ' \u25bc' : ' \u25b2') : '');
    unitRow.children[i].textContent = units[i];
  });
}

function sortBy(key) {
  const k = state.work ? 'workSortKey' : 'sortKey', d = state.work ? 'workSortDesc' : 'sortDesc';
  if (state[k] === key) state[d] = !state[d];
  else {
    state[k] = key;
    const col = columns().find(c => c.key === key);
    state[d] = col.kind !== 'text';
  }
  render();
}

const rowCache = new Map(); // id -> <tr>

function rowElement(id) {
  let tr = rowCache.get(id);
  if (!tr) {
    tr = document.createElement('tr');
    tr.dataset.id = id;
    for (const c of columns()) {
      const td = document.createElement('td');
      if (c.kind === 'text') td.className = 'text';
      if (c.key === 'source') {
        td.className = 'text name';
        td.title = 'the source\'s passes and history';
        td.addEventListener('click', () => showDetail(id));
      }
      if (c.kind === 'spark') {
        td.className = 'spark';
        const cv = document.createElement('canvas');
        cv.width = 96;
        cv.height = 20;
        td.appendChild(cv);
      }
      tr.appendChild(td);
    }
    rowCache.set(id, tr);
  }
  return tr;
}

function renderTable(snap) {
  const rows = visibleRows(snap);
  const shown = rows.slice(0, ROWS_SHOWN_MAX);
  const cols = columns();
  const units = cols.map(c => {
    if (c.kind === 'time') {
      let max = 0;
      for (const r of shown) if (r.have) { const v = c.get(r); if (v > max) max = v; }
      c.unit = timeUnit(max);
      return c.unit.name;
    }
    return c.kind === 'pct' ? '%' : c.kind === 'fps' ? 'fps' : c.kind === 'work' ? '/frame' : '';
  });
  buildHead(units);
  const body = $('rows');
  const keep = new Set();
  shown.forEach((r, i) => {
    const tr = rowElement(r.id);
    keep.add(r.id);
    cols.forEach((c, k) => {
      const td = tr.children[k];
      if (c.kind === 'work' && r.have && !r.work) return; // workCells says why
      if (c.kind === 'spark') {
        const h = state.hist.get(r.id);
        sparkline(td.firstChild, h ? h[c.series] : [], cssVar(c.series === 'gpu' ? '--gpu' : '--cpu'));
        return;
      }
      const text = cellText(c, r, c.unit, snap);
      if (td.textContent !== text) td.textContent = text;
      if (c.key === 'gpu_sum') {
        const title = r.have && gpuOn(snap) ? queueSumsText(r) : '';
        if (td.title !== title) td.title = title;
      }
      if (c.kind !== 'text')
        td.classList.toggle('dim', text === '-' || text === 'off' || text === 'wait' || text === 'n/a');
    });
    if (state.work) workCells(tr, cols, r, snap);
    if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] || null);
  });
  for (const [id, tr] of rowCache)
    if (!keep.has(id)) {
      tr.remove();
      if (!snap.sources.some(r => r.id === id)) rowCache.delete(id);
    }
  renderTotal(snap, cols);
  let note = (state.work ? workNote(snap) : '') + `${shown.length} of ${snap.sources_total} sources`;
  if (rows.length > shown.length) note += ` (the first ${ROWS_SHOWN_MAX} in this order; filter for others)`;
  else if (rows.length < snap.sources.length) note += ' (filtered)';
  if (snap.sources.length < snap.sources_total) note += `; the server sent ${snap.sources.length}`;
  note += `; updated ${new Date(snap.time_ms).toLocaleTimeString()}`;
  $('table-note').textContent = note;
}

function updateTypes(snap) {
  let added = false;
  for (const r of snap.sources)
    if (r.type && !state.types.has(r.type)) {
      state.types.add(r.type);
      added = true;
    }
  if (!added) return;
  const sel = $('type-filter');
  const current = sel.value;
  while (sel.children.length > 1) sel.removeChild(sel.lastChild);
  for (const t of [...state.types].sort()) {
    const o = document.createElement('option');
    o.value = t;
    o.textContent = t;
    sel.appendChild(o);
  }
  sel.value = current;
}

// --- A source's detail ------------------------------------------------------

// A small table of the detail: a label row, a unit row (each time column's
// unit from its largest value), one row per item.
function figureTable(labels, units, body, cols, items, snap) {
  labels.textContent = units.textContent = body.textContent = '';
  for (const c of cols) {
    let max = 0;
    if (c.kind === 'time') for (const it of items) max = Math.max(max, c.get(it));
    c.unit = timeUnit(max);
    const th = document.createElement('th');
    th.textContent = c.label;
    th.className = c.kind === 'text' ? 'text' : '';
    labels.appendChild(th);
    const u = document.createElement('th');
    u.textContent = c.kind === 'time' ? c.unit.name : c.kind === 'work' ? '/frame' : '';
    units.appendChild(u);
  }
  for (const it of items) {
    const tr = document.createElement('tr');
    for (const c of cols) {
      const td = document.createElement('td');
      if (c.kind === 'text') { td.className = 'text'; td.textContent = c.text(it); }
      else if (c.kind === 'work') td.textContent = workText(it.work, c.counter);
      else if (c.gpu && !gpuOn(snap)) td.textContent = 'off';
      else if (c.kind === 'count') td.textContent = String(c.get(it));
      else td.textContent = (c.get(it) / c.unit.ns).toFixed(c.unit.dec);
      if (c.kind === 'work') td.classList.toggle('dim', td.textContent === '-' || td.textContent === 'n/a');
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function showDetail(id) {
  state.selected = id;
  render();
}

function renderDetail(snap) {
  const box = $('detail');
  const r = state.selected !== null ? snap.sources.find(s => s.id === state.selected) : null;
  box.hidden = !r;
  $('table-box').hidden = !!r;
  if (!r) return;
  $('detail-name').textContent = r.source;
  $('detail-type').textContent = r.type ? `(${r.type})` : '';
  $('detail-counts').textContent = r.have
    ? `CPU samples ${r.cpu_samples}, GPU samples ${r.gpu_samples} in the window` +
      (r.async ? `; in ${r.async_input_fps.toFixed(1)} fps, out ${r.async_rendered_fps.toFixed(1)} fps` : '') +
      detailWorkText(r, snap)
    : 'no samples yet';
  const passCols = [
    {label: 'pass', kind: 'text', text: p => p.name},
    {label: 'render', kind: 'time', get: p => p.render_avg_ns},
    {label: 'rend max', kind: 'time', get: p => p.render_max_ns},
    {label: 'GPU', kind: 'time', gpu: true, get: p => p.render_gpu_avg_ns},
    {label: 'GPU max', kind: 'time', gpu: true, get: p => p.render_gpu_max_ns},
  ];
  if (severalQueues(snap))
    passCols.splice(1, 0, {label: 'queue', kind: 'text', text: p => p.queue_name || ''});
  passCols.push(...passWorkColumns(snap, r));
  figureTable($('pass-labels'), $('pass-units'), $('pass-rows'), passCols, r.passes || [], snap);
  // Its GPU sum on each queue: busy time on each, added up to GPU sum.
  const queues = severalQueues(snap) && r.have && r.queues ? r.queues : [];
  $('queues').hidden = !queues.length;
  $('detail-queues-caption').hidden = !queues.length;
  if (queues.length) {
    const u = timeUnit(r.render_gpu_sum_ns);
    $('detail-queues-caption').textContent = !gpuOn(snap) ? 'GPU sum per queue: GPU timing is off'
      : !r.gpu_samples ? 'GPU sum per queue: no GPU sample yet'
      : `GPU sum ${(r.render_gpu_sum_ns / u.ns).toFixed(u.dec)} ${u.name} = ${queueSumsText(r)} ` +
        '(busy time on each queue, added up: work on two queues at once counts on both)';
    figureTable($('queue-labels'), $('queue-units'), $('queue-rows'), [
      {label: 'queue', kind: 'text', text: q => q.name},
      {label: 'GPU sum', kind: 'time', gpu: true, get: q => q.render_gpu_sum_ns},
      {label: 'GPU max', kind: 'time', gpu: true, get: q => q.render_gpu_max_ns},
      {label: 'GPU n', kind: 'count', gpu: true, get: q => q.gpu_samples},
    ], queues, snap);
  }
  const h = state.hist.get(r.id) || {t: [], gpu: [], cpu: []};
  $('detail-caption').textContent =
    'GPU sum (orange) and rend sum (green), us, at each update of the last minutes ' +
    '(each point: the window\'s average then)';
  timeChart($('detail-chart'), h.t, [{values: h.gpu, color: cssVar('--gpu')},
                                      {values: h.cpu, color: cssVar('--cpu')}], [], 'us', 0);
}

// --- The whole page -----------------------------------------------------------

function render() {
  const snap = state.shown;
  if (!snap) return;
  header(snap);
  workSwitch(snap);
  updateTypes(snap);
  drawGraph(snap);
  renderTable(snap);
  renderDetail(snap);
}

function say(text) {
  const el = $('state');
  el.hidden = !text;
  el.textContent = text || '';
}

function connect() {
  const es = new EventSource('/api/v1/stream');
  state.source = es;
  es.addEventListener('history', e => onHistory(JSON.parse(e.data)));
  es.addEventListener('update', e => {
    const snap = JSON.parse(e.data);
    const now = Date.now();
    state.latencyMs.push(now - snap.time_ms);
    if (state.latencyMs.length > 1000) state.latencyMs.shift();
    state.lastUpdate = now;
    state.updates++;
    recordUpdate(snap);
    state.snap = snap;
    if (!state.paused) state.shown = snap;
    say('');
    render();
  });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED)
      say('not connected: the server refused the stream (open the URL the program printed, ' +
          'with its token=) or stopped; reload to try again');
    else
      say('connection lost: reconnecting...');
  };
}

// --- Downloads ------------------------------------------------------------------

function stamp() {
  const d = new Date(), p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

const CSV_FIELDS = ['tick_avg_ns', 'tick_max_ns', 'render_avg_ns', 'render_max_ns', 'render_sum_ns',
  'render_gpu_avg_ns', 'render_gpu_max_ns', 'render_gpu_sum_ns', 'async_input_fps',
  'async_input_best_ns', 'async_input_worst_ns', 'async_rendered_fps', 'async_rendered_best_ns',
  'async_rendered_worst_ns', 'gpu_mode', 'cpu_samples', 'gpu_samples', 'tick_p50_ns', 'render_p50_ns',
  'render_sum_p50_ns', 'render_gpu_p50_ns', 'render_gpu_sum_p50_ns', 'gpu_resolution_ns',
  'render_sum_ci95_ns', 'render_gpu_sum_ci95_ns', 'gpu_sum_by_queue_ns', 'work_frames',
  'input_vertices_per_frame', 'input_primitives_per_frame', 'vs_invocations_per_frame',
  'clipping_invocations_per_frame', 'clipping_primitives_per_frame', 'fs_invocations_per_frame',
  'cs_invocations_per_frame', 'type'];

// The profiler's CSV column "graphics:5839000;compute:864800". With one
// queue the snapshot carries no per-queue figures: that queue's sum is
// the source's GPU sum (where it has passes; none: empty, as the
// profiler writes it).
function queueColumn(snap, r) {
  if (r.queues) return r.queues.map(q => `${q.name}:${q.render_gpu_sum_ns}`).join(';');
  if (!r.passes || !r.passes.length) return '';
  const q0 = (snap.profiler.queues || []).find(q => q.queue === 0);
  return `${q0 ? q0.name : '?'}:${r.render_gpu_sum_ns}`;
}

function csvField(v) {
  const s = String(v);
  return /[",\n\r]/.test(s) || s.startsWith('#') ? '"' + s.replace(/"/g, '""') + '"' : s;
}

// The snapshot the table shows, in the columns of the profiler's CSV (and
// of /api/v1/snapshot?format=csv, work columns included), a type column
// last.
function snapshotCsv(snap) {
  const mode = gpuOn(snap) ? snap.profiler.gpu_mode : 'off';
  const res = gpuOn(snap) ? snap.profiler.gpu_resolution_ns : 0;
  const lines = [
    '# srcprof live snapshot: every source\'s results over the window',
    `# program: ${snap.program}`, `# api: ${snap.api}`, `# device: ${snap.device}`,
    `# snapshot: ${snap.seq}, time ${snap.time_ms} ms since 1970`,
    '# units: each column name ends in its unit: _ns nanoseconds, _fps frames per second, ' +
      '_per_frame a count per frame (n/a: not counted by the device; empty: work counting off)',
    'source,' + CSV_FIELDS.join(','),
  ];
  for (const r of snap.sources) {
    if (!r.have) continue;
    const v = CSV_FIELDS.map(f => {
      if (f === 'gpu_mode') return mode;
      if (f === 'gpu_resolution_ns') return res;
      if (f === 'type') return r.type;
      if (f === 'gpu_sum_by_queue_ns') return queueColumn(snap, r);
      if (f === 'work_frames' || CSV_WORK.includes(f)) return workColumn(snap, r, f);
      if (f.endsWith('_fps')) return r[f].toFixed(3);
      return r[f] === undefined ? 0 : r[f];
    });
    lines.push([r.source, ...v].map(csvField).join(','));
  }
  return lines.join('\n') + '\n';
}

function downloadSnapshot(kind) {
  const snap = state.shown;
  if (!snap) return;
  if (kind === 'csv')
    download(`srcprof-snapshot-${stamp()}.csv`, new Blob([snapshotCsv(snap)], {type: 'text/csv'}));
  else
    download(`srcprof-snapshot-${stamp()}.json`,
             new Blob([JSON.stringify(snap, null, 1)], {type: 'application/json'}));
}

// --- Captures and Perfetto ---------------------------------------------------------

async function capture() {
  const btn = $('capture'), out = $('capture-state');
  btn.disabled = true;
  const started = Date.now();
  const tick = setInterval(() => {
    out.textContent = `recording... ${((Date.now() - started) / 1000).toFixed(0)} s`;
  }, 250);
  out.textContent = 'recording...';
  try {
    const resp = await fetch('/api/v1/capture', {method: 'POST', credentials: 'same-origin'});
    if (!resp.ok) {
      out.textContent = `capture refused: ${(await resp.text()).trim()}`;
      return;
    }
    const buffer = await resp.arrayBuffer();
    const name = `srcprof-trace-${stamp()}.json`;
    state.trace = {name, buffer};
    download(name, new Blob([buffer], {type: 'application/json'}));
    out.textContent = `${name}: ${(buffer.byteLength / 1024).toFixed(0)} KiB`;
    $('perfetto').disabled = false;
  } catch (e) {
    out.textContent = `capture failed: ${e}`;
  } finally {
    clearInterval(tick);
    btn.disabled = false;
  }
}

// Perfetto's hand-off: its UI opened in a new tab, pinged until it answers,
// then given the trace's bytes by postMessage. It never gets an address of
// this server.
function openInPerfetto() {
  const trace = state.trace;
  if (!trace) return;
  const win = window.open(PERFETTO + '/#!/viewer', '_blank');
  const out = $('capture-state');
  if (!win) {
    out.textContent = 'the browser blocked the new tab: allow pop-ups for this page, or open the ' +
      'downloaded file in ui.perfetto.dev';
    return;
  }
  let tries = 0;
  const ping = setInterval(() => {
    if (++tries > 300) {
      clearInterval(ping);
      window.removeEventListener('message', onPong);
      out.textContent = 'Perfetto did not answer (offline?): open the downloaded file there';
      return;
    }
    win.postMessage('PING', PERFETTO);
  }, 100);
  function onPong(e) {
    if (e.origin !== PERFETTO || e.data !== 'PONG') return;
    clearInterval(ping);
    window.removeEventListener('message', onPong);
    win.postMessage({perfetto: {buffer: trace.buffer.slice(0), title: trace.name, fileName: trace.name}},
                    PERFETTO);
    out.textContent = `${trace.name} sent to Perfetto`;
  }
  window.addEventListener('message', onPong);
}

// --- Controls ------------------------------------------------------------------------

function setup() {
  $('filter').addEventListener('input', e => { state.filter = e.target.value; render(); });
  $('type-filter').addEventListener('change', e => { state.type = e.target.value; render(); });
  $('pause').addEventListener('click', () => {
    state.paused = !state.paused;
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    $('pause').classList.toggle('on', state.paused);
    if (!state.paused) state.shown = state.snap;
    render();
  });
  $('dl-csv').addEventListener('click', () => downloadSnapshot('csv'));
  $('dl-json').addEventListener('click', () => downloadSnapshot('json'));
  $('capture').addEventListener('click', capture);
  $('perfetto').addEventListener('click', openInPerfetto);
  $('detail-close').addEventListener('click', () => { state.selected = null; render(); });
  window.addEventListener('resize', render);
  connect();
}

setup();
