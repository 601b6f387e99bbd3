// The live page's work table in real Chromium, against a demo run with
// --work (run inside the page by cdp_drive): the switch and the W key
// show each source's work per frame in the demo's columns, every cell the
// snapshot's count ("n/a" where the device does not count it), a source
// never drawn says it has no counted frame, sorting by a counter, a
// source's detail with each pass's work beside its times, and the CSV
// download (checked by page_work.sh). Ends in the work table, for the
// screenshot. Evaluates to {ok, failures, notes}.
(async () => {
  const failures = [], notes = {};
  const fail = what => failures.push(what);
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const L = window.srcprofLive;
  // Generous waits: a busy machine is slow, not wrong.
  const until = async (what, fn, ms = 90000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      try { if (fn()) return true; } catch (e) { /* not yet */ }
      await sleep(100);
    }
    fail('timed out waiting for ' + what);
    return false;
  };
  const rows = () => [...document.querySelectorAll('#rows tr')];
  const keys = () => [...document.querySelectorAll('#labels th')].map(th => th.dataset.key);
  const index = key => keys().indexOf(key);
  const cells = key => rows().map(tr => tr.children[index(key)].textContent);
  const header = key => document.querySelector(`#labels th[data-key="${key}"]`);
  const byName = () => new Map(L.shown.sources.map(r => [r.source, r]));
  const press = key => document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  // The demo's way of writing a count.
  const count = v => v < 1e7 ? String(v) : v < 1e10 ? (v / 1e6).toFixed(1) + 'M' : (v / 1e9).toFixed(1) + 'G';
  const counters = ['vertices', 'primitives', 'vs_invocations', 'clip_in', 'clip_out', 'fs_invocations',
                    'cs_invocations'];
  const want = (w, k) => !w ? '-' : w.counters[k] === null ? 'n/a' : count(w.counters[k].avg);

  if (!await until('sources with work counts', () => L.shown && L.shown.work_enabled &&
                   L.shown.sources.filter(r => r.work).length >= 3))
    return {ok: false, failures, notes};

  // The switch: the work table, in the demo's columns.
  const btn = document.getElementById('work');
  btn.click();
  const want_keys = ['source', 'type', 'work_frames', ...counters.map(k => 'work_' + k)];
  if (keys().join() !== want_keys.join()) fail('the work table\'s columns: ' + keys().join());
  notes.labels = [...document.querySelectorAll('#labels th')].map(th => th.textContent);
  if (!/show time/i.test(btn.textContent) || !btn.classList.contains('on'))
    fail('the switch after a click reads: ' + btn.textContent);
  // Pause, so that the cells and the snapshot they come from hold still.
  document.getElementById('pause').click();
  {
    const m = byName();
    let checked = 0, na = 0;
    for (const tr of rows()) {
      const r = m.get(tr.children[0].textContent);
      if (!r || !r.have) continue;
      if (!r.work) {
        const text = tr.children[index('work_vertices')].textContent;
        if (!/no counted frame/.test(text)) fail(`${r.source} has no work, yet reads "${text}"`);
        else notes.no_counts = r.source;
        continue;
      }
      if (tr.children[index('work_frames')].textContent !== String(r.work.frames))
        fail(`${r.source} frames: ${tr.children[index('work_frames')].textContent}, not ${r.work.frames}`);
      for (const k of counters) {
        const got = tr.children[index('work_' + k)].textContent;
        if (got !== want(r.work, k)) fail(`${r.source} ${k}: "${got}", not "${want(r.work, k)}"`);
        checked++;
        na += got === 'n/a';
      }
    }
    notes.cells_checked = checked;
    notes.cells_na = na;
    if (checked < 3 * counters.length) fail(`only ${checked} work cells checked`);
    if (!notes.no_counts) fail('no source without counts says so (game-logic is ticked, never drawn)');
    const note = document.getElementById('table-note').textContent;
    notes.note = note;
    if (!/work per frame/.test(note)) fail('the note: ' + note);
    // The whole frame's row, under the sources.
    const total = [...document.querySelectorAll('#total td')].map(td => td.textContent);
    const f = L.shown.frame_work;
    notes.whole_frame = total;
    if (!f || total[0] !== '(frame total)' || total[index('work_frames')] !== String(f.frames) ||
        counters.some(k => total[index('work_' + k)] !== want(f, k)))
      fail('the frame total row: ' + total.join(',') + ' for ' + JSON.stringify(f));
  }

  // Sorted by FS invocations, largest first, by default; a click on its
  // label: smallest first; another: largest first again (for the picture).
  for (const desc of [true, false, true]) {
    if (!desc || notes.by_fs) header('work_fs_invocations').click();
    const m = byName();
    const v = cells('source').map(n => m.get(n)).filter(r => r && r.work && r.work.counters.fs_invocations)
      .map(r => r.work.counters.fs_invocations.avg);
    const sorted = header('work_fs_invocations').classList.contains('sorted');
    if (!sorted || !v.every((x, i) => i === 0 || (desc ? v[i - 1] >= x : v[i - 1] <= x)))
      fail(`FS inv order (${desc ? 'desc' : 'asc'}): ` + v.join(','));
    if (desc) notes.by_fs = cells('source').slice(0, 3);
  }

  // W: back to time, and to work again.
  press('w');
  if (index('gpu_p50') < 0 || index('work_frames') >= 0) fail('W did not show time: ' + keys().join());
  press('W');
  if (index('work_frames') < 0) fail('W did not show work again: ' + keys().join());

  // A source's detail: each pass's work beside its times.
  {
    const r = L.shown.sources.find(s => s.work && s.passes.some(p => p.work));
    if (!r) {
      fail('no source with work per pass');
    } else {
      const tr = rows().find(t => t.children[0].textContent === r.source);
      tr.querySelector('td.name').click();
      const labels = [...document.querySelectorAll('#pass-labels th')].map(th => th.textContent);
      notes.detail_labels = labels;
      const fi = labels.indexOf('FS inv'), gi = labels.indexOf('GPU');
      if (fi < 0 || gi < 0 || fi < gi) fail('the detail\'s pass columns: ' + labels.join(','));
      const prs = [...document.querySelectorAll('#pass-rows tr')];
      r.passes.forEach((p, i) => {
        const got = prs[i] ? prs[i].children[fi].textContent : '(none)';
        if (got !== want(p.work, 'fs_invocations'))
          fail(`${r.source} pass ${p.name} FS inv: "${got}", not "${want(p.work, 'fs_invocations')}"`);
      });
      notes.detail = `${r.source}: ${r.passes.map(p => p.name + ' ' + want(p.work, 'fs_invocations')).join(', ')}`;
      const counts = document.getElementById('detail-counts').textContent;
      if (!/work per frame over \d+ counted frames/.test(counts)) fail('the detail\'s work line: ' + counts);
      document.getElementById('detail-close').click();
    }
  }

  // The CSV download (page_work.sh reads it), then the newest figures in
  // the work table for the picture.
  document.getElementById('dl-csv').click();
  document.getElementById('pause').click();
  await sleep(1200);
  notes.rows = rows().length;
  return {ok: failures.length === 0, failures, notes};
})()
