// For the docs' picture of the page (cdp_drive --screenshot): waits until
// the table has figures and the sparklines and graph a minute of history.
// Evaluates to {ok, failures, notes}.
(async () => {
  const L = window.srcprofLive;
  const end = Date.now() + 240000;
  while (Date.now() < end) {
    if (L.shown && L.shown.sources.some(r => r.gpu_samples > 0) && L.frames.t.length >= 120)
      return {ok: true, failures: [], notes: {updates: L.updates}};
    await new Promise(r => setTimeout(r, 250));
  }
  return {ok: false, failures: ['no minute of history in 4 minutes'], notes: {}};
})()
