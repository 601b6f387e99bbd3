// For the docs' picture of a source's detail (cdp_drive --screenshot):
// waits until the table has figures and a minute of history, then opens
// the detail of the source rendered on the most GPU queues (the header
// naming the queues and threads above it). Evaluates to {ok, failures,
// notes}.
(async () => {
  const L = window.srcprofLive;
  const end = Date.now() + 240000;
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  while (Date.now() < end) {
    if (L.shown && L.shown.sources.some(r => r.gpu_samples > 0) && L.frames.t.length >= 120) break;
    await sleep(250);
  }
  if (!(L.frames.t.length >= 120)) return {ok: false, failures: ['no minute of history in 4 minutes'], notes: {}};
  const queues = r => (r.have && r.gpu_samples && r.queues ? r.queues.length : 0);
  const pick = L.shown.sources.slice().sort((a, b) => queues(b) - queues(a) ||
                                            b.render_gpu_sum_ns - a.render_gpu_sum_ns)[0];
  const cell = [...document.querySelectorAll('#rows td.name')].find(td => td.textContent === pick.source);
  cell.click();
  await sleep(600);
  return {ok: !document.getElementById('detail').hidden, failures: [],
          notes: {updates: L.updates, source: pick.source, queues: queues(pick)}};
})()
