// The live page's behaviour in real Chromium, run inside the page by
// cdp_drive: rows appear and update, sorting and filtering, sparklines,
// pause, the work switch with work counting off, a source's detail, the
// two snapshot downloads, a capture and the Perfetto hand-off (window.open
// stubbed: the machine has no network).
// Evaluates to {ok, failures, notes}.
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
  const index = key => [...document.querySelectorAll('#labels th')].findIndex(th => th.dataset.key === key);
  const cells = key => rows().map(tr => tr.children[index(key)].textContent);
  const header = key => document.querySelector(`#labels th[data-key="${key}"]`);
  const byName = () => new Map(L.shown.sources.map(r => [r.source, r]));
  const sortedBy = (values, desc) => values.every((v, i) => i === 0 ||
    (desc ? values[i - 1] >= v : values[i - 1] <= v));

  // Rows appear, with figures.
  if (!await until('rows with figures', () => rows().length > 0 && L.shown.sources.some(r => r.have)))
    return {ok: false, failures, notes};
  notes.rows = rows().length;
  if (rows().length !== Math.min(L.shown.sources.length, 500))
    fail(`${rows().length} rows for ${L.shown.sources.length} sources`);

  // They update: newer snapshots, more frames, the table follows.
  const seq0 = L.snap.seq, frames0 = L.snap.profiler.frames_collected;
  await until('two more updates', () => L.snap.seq >= seq0 + 2);
  await until('more frames collected', () => L.snap.profiler.frames_collected > frames0);
  if (L.shown.seq !== L.snap.seq) fail('the table does not show the newest snapshot');
  await until('GPU figures', () => L.shown.sources.some(r => r.have && r.gpu_samples > 0));

  // Sorting: the default is GPU p50, largest first; then by name both
  // ways; then by GPU sum.
  if (!header('gpu_p50').classList.contains('sorted')) fail('the default order is not GPU p50');
  {
    const m = byName();
    const v = cells('source').map(n => m.get(n)).filter(r => r && r.have && r.gpu_samples)
      .map(r => r.render_gpu_sum_p50_ns);
    if (!sortedBy(v, true)) fail('rows are not in GPU p50 order: ' + v.join(','));
  }
  header('source').click();
  if (!sortedBy(cells('source'), false)) fail('source order, ascending: ' + cells('source').join(','));
  header('source').click();
  if (!sortedBy(cells('source'), true)) fail('source order, descending: ' + cells('source').join(','));
  header('gpu_sum').click();
  {
    const m = byName();
    const v = cells('source').map(n => m.get(n)).filter(r => r && r.have && r.gpu_samples)
      .map(r => r.render_gpu_sum_ns);
    if (!sortedBy(v, true)) fail('rows are not in GPU sum order: ' + v.join(','));
    notes.sorted_by_gpu_sum = cells('source').slice(0, 3);
  }

  // Filtering by name and by type.
  const total = rows().length;
  const filter = document.getElementById('filter');
  filter.value = 'mesh';
  filter.dispatchEvent(new Event('input'));
  const meshes = cells('source');
  if (!meshes.length || meshes.length >= total || !meshes.every(n => n.toLowerCase().includes('mesh')))
    fail('filter "mesh" shows: ' + meshes.join(','));
  notes.filtered_mesh = meshes.length;
  filter.value = '';
  filter.dispatchEvent(new Event('input'));
  if (rows().length !== total) fail('clearing the filter does not bring the rows back');
  const type = document.getElementById('type-filter');
  const types = [...type.options].map(o => o.value).filter(v => v);
  notes.types = types;
  if (types.includes('video')) {
    type.value = 'video';
    type.dispatchEvent(new Event('change'));
    const t = cells('type');
    if (!t.length || !t.every(v => v === 'video')) fail('type filter "video" shows: ' + t.join(','));
    type.value = '';
    type.dispatchEvent(new Event('change'));
  } else {
    fail('no "video" type offered: ' + types.join(','));
  }

  // Sparklines: drawn for some rows.
  await until('history for the sparklines', () => [...L.hist.values()].some(h => h.gpu.filter(v => v !== null).length > 2));
  const inked = rows().filter(tr => {
    const cv = tr.querySelector('td.spark canvas');
    const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i]) return true;
    return false;
  }).length;
  notes.sparklines_drawn = inked;
  if (!inked) fail('no sparkline drawn');

  // Pause holds the table; resume shows the newest again.
  document.getElementById('pause').click();
  const held = L.shown.seq;
  await until('updates while paused', () => L.snap.seq >= held + 2);
  if (L.shown.seq !== held) fail('the table moved while paused');
  document.getElementById('pause').click();
  if (L.shown.seq !== L.snap.seq) fail('resume did not show the newest snapshot');

  // Work counting is off in this run (no --work): the switch and W keep
  // the time table and say how to turn it on.
  if (L.shown.work_enabled) fail('work counting is on without --work');
  document.getElementById('work').click();
  const workSays = document.getElementById('work-state').textContent;
  notes.work_switch = workSays;
  if (!/work counting is off/.test(workSays) || !workSays.includes('--work') ||
      !workSays.includes('source_profiler_work_enable(true)'))
    fail('the work switch with work counting off says: ' + workSays);
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'w', bubbles: true}));
  if (!header('gpu_p50') || header('work_frames')) fail('the work switch left the time table');
  if (!document.getElementById('work').title.includes('--work'))
    fail('the switch\'s tooltip: ' + document.getElementById('work').title);

  // A source's detail: its passes.
  rows()[0].querySelector('td.name').click();
  if (document.getElementById('detail').hidden) fail('the detail did not open');
  const passes = document.querySelectorAll('#pass-rows tr').length;
  notes.detail_passes = passes;
  if (!passes) fail('the detail shows no pass');
  document.getElementById('detail-close').click();
  if (!document.getElementById('detail').hidden) fail('the detail did not close');

  // Threads and queues. The header names the queues and the recording
  // threads when there are several; a source on two queues shows each
  // queue's GPU sum in its detail and each pass's queue.
  const threadsLine = document.getElementById('threads');
  const several = (L.shown.profiler.gpu_queues || 0) > 1;
  notes.queues = (L.shown.profiler.queues || []).map(q => q.name);
  notes.threads = L.shown.profiler.threads;
  notes.threads_line = threadsLine.hidden ? '' : threadsLine.textContent;
  if (several) {
    const names = L.shown.profiler.queues.map(q => q.name);
    if (threadsLine.hidden || !threadsLine.textContent.includes('queues: ' + names.join(', ')))
      fail('the header does not name the queues: ' + threadsLine.textContent);
  }
  if (L.shown.profiler.threads > 0 &&
      (threadsLine.hidden || !threadsLine.textContent.includes(`${L.shown.profiler.threads} thread`)))
    fail('the header does not count the recording threads: ' + threadsLine.textContent);
  if (!several && !(L.shown.profiler.threads > 0) && !threadsLine.hidden)
    fail('one queue and no thread, yet the header says: ' + threadsLine.textContent);
  const lost = document.getElementById('lost');
  const counters = ['threads_refused', 'records_late', 'records_dropped', 'gpu_timers_unavailable',
                    'gpu_timers_misplaced', 'gpu_timers_denied'];
  const anyLost = counters.some(k => L.shown.profiler[k] > 0);
  if (lost.hidden === anyLost) fail(`the lost line is ${lost.hidden ? 'hidden' : 'shown'}: ${lost.textContent}`);
  // The warning says each counter that is not 0, and only those (the page's
  // own function, given the snapshot with two counters set).
  {
    const fake = JSON.parse(JSON.stringify(L.shown));
    fake.profiler.records_late = 7;
    fake.profiler.gpu_timers_denied = 3;
    window.threadsLine(fake);
    const text = lost.textContent;
    if (lost.hidden || !/7 ticks and renders late/.test(text) || !/3 GPU timers denied/.test(text) ||
        /threads refused|renders dropped|misplaced|unavailable/.test(text))
      fail('the lost line for records_late 7, gpu_timers_denied 3: ' + text);
    notes.lost_line = text;
    window.threadsLine(L.shown);
  }
  if (several) {
    const two = L.shown.sources.find(r => r.have && r.queues && r.queues.length > 1 && r.gpu_samples > 0);
    if (!two) {
      fail('several queues, yet no source with figures on two');
    } else {
      notes.two_queue_source = two.source;
      // Its GPU sum cell's tooltip names both queues.
      const td = rows().find(tr => tr.children[index('source')].textContent === two.source)
        .children[index('gpu_sum')];
      if (!two.queues.every(q => td.title.includes(q.name))) fail('GPU sum tooltip: ' + td.title);
      const sum = two.queues.reduce((a, q) => a + q.render_gpu_sum_ns, 0);
      if (Math.abs(sum - two.render_gpu_sum_ns) > two.queues.length)
        fail(`${two.source}: queue sums ${sum} against GPU sum ${two.render_gpu_sum_ns}`);
      rows().find(tr => tr.children[index('source')].textContent === two.source)
        .querySelector('td.name').click();
      const qrows = [...document.querySelectorAll('#queue-rows tr')].map(tr => tr.children[0].textContent);
      notes.detail_queues = qrows;
      if (document.getElementById('queues').hidden || !two.queues.every(q => qrows.includes(q.name)))
        fail('the detail\'s queue table: ' + qrows.join(','));
      const caption = document.getElementById('detail-queues-caption').textContent;
      if (!two.queues.every(q => caption.includes(q.name))) fail('the detail\'s queue caption: ' + caption);
      const labels = [...document.querySelectorAll('#pass-labels th')].map(th => th.textContent);
      const qi = labels.indexOf('queue');
      const passQueues = [...document.querySelectorAll('#pass-rows tr')].map(tr => tr.children[qi].textContent);
      notes.detail_pass_queues = passQueues;
      if (qi < 0 || !two.queues.every(q => passQueues.includes(q.name)))
        fail('the passes\' queues: ' + labels.join(',') + ' / ' + passQueues.join(','));
      document.getElementById('detail-close').click();
    }
  }

  // Downloads (the driver waits for them and the test checks the files).
  document.getElementById('dl-csv').click();
  document.getElementById('dl-json').click();

  // A capture: recorded by the renderer, downloaded, kept for Perfetto.
  document.getElementById('capture').click();
  const cap = document.getElementById('capture-state');
  await until('the capture', () => /KiB|refused|failed/.test(cap.textContent), 120000);
  notes.capture = cap.textContent;
  if (!/srcprof-trace-.*KiB/.test(cap.textContent)) fail('capture: ' + cap.textContent);
  if (document.getElementById('perfetto').disabled) fail('Open in Perfetto stays disabled');

  // Perfetto's hand-off: a new tab of ui.perfetto.dev, pinged, then given
  // the trace's bytes.
  const opened = [], posted = [];
  const realOpen = window.open;
  window.open = (url, target) => {
    opened.push(url);
    return {postMessage: (m, origin) => posted.push({m, origin})};
  };
  document.getElementById('perfetto').click();
  await until('a PING', () => posted.some(p => p.m === 'PING'));
  window.dispatchEvent(new MessageEvent('message', {data: 'PONG', origin: 'https://ui.perfetto.dev'}));
  await until('the trace posted', () => posted.some(p => p.m && p.m.perfetto));
  window.open = realOpen;
  const sent = posted.find(p => p.m && p.m.perfetto);
  if (!opened.length || !opened[0].startsWith('https://ui.perfetto.dev/')) fail('opened: ' + opened.join(','));
  if (!sent || sent.origin !== 'https://ui.perfetto.dev' || !(sent.m.perfetto.buffer.byteLength > 0))
    fail('the trace was not posted to Perfetto');
  if (opened.some(u => u.includes(location.host))) fail('Perfetto was given this server\'s address');
  notes.perfetto_bytes = sent ? sent.m.perfetto.buffer.byteLength : 0;

  // How late updates arrive: now minus the snapshot's time (one clock).
  const lat = L.latencyMs.slice().sort((a, b) => a - b);
  notes.updates = L.updates;
  notes.latency_ms = {median: lat[Math.floor(lat.length / 2)], max: lat[lat.length - 1], n: lat.length};
  notes.connection = document.getElementById('state').textContent;
  return {ok: failures.length === 0, failures, notes};
})()
