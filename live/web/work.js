// srcprof live: the work view (after live.js, whose state, table and
// render it uses). The Work switch and W show the table as each source's
// work per frame, as the GPU counted it (the snapshot's "work" objects:
// docs/live.md), in the demo's work table's columns; a source's detail
// shows each pass's work beside its times; the CSV download gets the
// profiler's work columns. While work counting is off the switch stays on
// time and says how to turn it on.
'use strict';

// The work counters, in the profiler's order: the snapshot's key and the
// demo's label.
const WORK_COUNTERS = [
  {key: 'vertices', label: 'vertices'},
  {key: 'primitives', label: 'prims'},
  {key: 'vs_invocations', label: 'VS inv'},
  {key: 'clip_in', label: 'clip in'},
  {key: 'clip_out', label: 'clip out'},
  {key: 'fs_invocations', label: 'FS inv'},
  {key: 'cs_invocations', label: 'CS inv'},
];

// A counter's average per frame in a work object; null where the device
// does not count it (or there is no work object).
function workAvg(w, key) {
  const c = w && w.counters[key];
  return c ? c.avg : null;
}

// The work table (W), as the demo's: counted frames, then each counter's
// average per frame.
const WORK_COLUMNS = [
  COLUMNS[0], COLUMNS[1],
  {key: 'work_frames', label: 'frames', kind: 'frames', get: r => (r.work ? r.work.frames : null)},
  ...WORK_COUNTERS.map(c => ({key: 'work_' + c.key, label: c.label, kind: 'work', counter: c.key,
                              get: r => workAvg(r.work, c.key)})),
];

const WORK_OFF = 'work counting is off: --work, or source_profiler_work_enable(true)';

// A count as the demo's work table writes it: exact below 10 million.
function countText(v) {
  if (v < 1e7) return String(v);
  if (v < 1e10) return (v / 1e6).toFixed(1) + 'M';
  return (v / 1e9).toFixed(1) + 'G';
}

// --- Cells -------------------------------------------------------------------

// A counter of a work object: 'n/a' where the device does not count it,
// '-' without a work object.
function workText(w, key) {
  if (!w) return '-';
  const v = workAvg(w, key);
  return v === null ? 'n/a' : countText(v);
}

// --- The table -----------------------------------------------------------------

// A row of the work table without counts says so across the counters'
// cells (the first spans them, the others hide).
function workCells(tr, cols, r, snap) {
  const first = cols.findIndex(c => c.kind === 'work');
  const none = r.have && !r.work;
  cols.forEach((c, k) => {
    if (c.kind !== 'work') return;
    const td = tr.children[k];
    td.hidden = none && k !== first;
    td.colSpan = none && k === first ? cols.length - first : 1;
    td.classList.toggle('text', none && k === first);
    td.title = none && k === first ? (snap.work_enabled
      ? 'no render of it in a counted frame yet: it is not drawn, GPU timing is off, the device ' +
        'counts nothing, or it is drawn inside another source\'s render (counted there)'
      : WORK_OFF) : '';
    if (none && k === first) {
      td.textContent = snap.work_enabled ? 'no counted frame' : 'work counting is off';
      td.classList.add('dim');
    }
  });
}

// The work table's note: what it shows.
function workNote(snap) {
  if (!snap.work_enabled) return WORK_OFF + '. ';
  return 'work per frame, counted by the GPU over each source\'s counted frames (exact; ' +
    'n/a: the device does not count it). ';
}

// The work table's last row: the frame's total (every counted source
// added up), under the sources whatever their order.
function renderTotal(snap, cols) {
  const foot = $('total');
  const f = state.work ? snap.frame_work : null;
  if (!f) {
    foot.textContent = '';
    return;
  }
  let tr = foot.firstChild;
  if (!tr || tr.children.length !== cols.length) {
    foot.textContent = '';
    tr = document.createElement('tr');
    for (const c of cols) {
      const td = document.createElement('td');
      if (c.kind === 'text') td.className = 'text';
      tr.appendChild(td);
    }
    foot.appendChild(tr);
  }
  cols.forEach((c, k) => {
    const text = c.key === 'source' ? '(frame total)' : c.kind === 'text' ? ''
      : c.kind === 'frames' ? String(f.frames) : workText(f, c.counter);
    if (tr.children[k].textContent !== text) tr.children[k].textContent = text;
  });
  tr.title = 'every counted source\'s work added up, per frame, over the frames counted';
}

// --- A source's detail ----------------------------------------------------------

// The detail's work line: the source's work per frame over all its passes.
function detailWorkText(r, snap) {
  if (!r.work)
    return snap.work_enabled ? '\nwork: no counted frame yet' : '';
  return `\nwork per frame over ${r.work.frames} counted frames: ` +
    WORK_COUNTERS.map(c => `${c.label} ${workText(r.work, c.key)}`).join(', ');
}

// The pass table's work columns, beside the times: while work is counted
// (or the source has counts from before); none otherwise.
function passWorkColumns(snap, r) {
  if (!snap.work_enabled && !r.work) return [];
  return WORK_COUNTERS.map(c => ({label: c.label, kind: 'work', counter: c.key}));
}

// --- The switch ------------------------------------------------------------------

// The switch's tooltip says what W does, or how to turn work counting on.
function workSwitch(snap) {
  const btn = $('work');
  const title = snap.work_enabled ? 'W: the table shows time or each source\'s work per frame'
    : WORK_OFF;
  if (btn.title !== title) btn.title = title;
  btn.classList.toggle('dim', !snap.work_enabled && !state.work);
  if (snap.work_enabled && $('work-state').textContent === WORK_OFF) $('work-state').textContent = '';
}

// --- The CSV download ---------------------------------------------------------------

// The profiler's CSV work columns (after work_frames), in WORK_COUNTERS'
// order.
const CSV_WORK = CSV_FIELDS.slice(CSV_FIELDS.indexOf('work_frames') + 1, CSV_FIELDS.indexOf('type'));

// A work column as the profiler's CSV writes it: a counter the device does
// not count is n/a; a source without counts has 0 frames and n/a while
// work counting is on, empty fields while it is off.
function workColumn(snap, r, f) {
  if (!r.work) return snap.work_enabled ? (f === 'work_frames' ? 0 : 'n/a') : '';
  if (f === 'work_frames') return r.work.frames;
  const v = workAvg(r.work, WORK_COUNTERS[CSV_WORK.indexOf(f)].key);
  return v === null ? 'n/a' : v;
}

// --- Controls -------------------------------------------------------------------------

// The Work switch (and W): the table shows work per frame or time. While
// work counting is off it does not switch, and says how to turn it on.
function toggleWork() {
  const snap = state.shown;
  const out = $('work-state');
  if (!state.work && snap && !snap.work_enabled) {
    out.textContent = WORK_OFF;
    return;
  }
  out.textContent = '';
  state.work = !state.work;
  const btn = $('work');
  btn.textContent = state.work ? 'Show time (W)' : 'Show work (W)';
  btn.classList.toggle('on', state.work);
  // The rows and the head are made again with the other columns.
  rowCache.clear();
  $('rows').textContent = $('labels').textContent = $('units').textContent = '';
  render();
}

function onKey(e) {
  if ((e.key !== 'w' && e.key !== 'W') || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
  e.preventDefault();
  toggleWork();
}

$('work').addEventListener('click', toggleWork);
document.addEventListener('keydown', onKey);
