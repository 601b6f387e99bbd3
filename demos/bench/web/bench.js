/* srcprof-bench's HTML pages: tables of class "sortable" sort by a click on
 * a column (numbers by their cell's data-v, text otherwise; rows moved in
 * place; a click on the sorted column reverses it), and by the column whose
 * <th> has data-default="desc" or "asc" when the page loads. Once it ran,
 * <body> has data-js="ready" (the browser test checks both). Embedded
 * inline at build time (demos/bench/report/bench_page.c). */
(function () {
	'use strict';

	function key(row, col) {
		var c = row.cells[col];
		if (!c)
			return '';
		var v = c.getAttribute('data-v');
		return v === null ? c.textContent : parseFloat(v);
	}

	function sort(t, col, dir) {
		var b = t.tBodies[0];
		if (!b)
			return;
		var rows = Array.prototype.slice.call(b.rows);
		rows.sort(function (x, y) {
			var a = key(x, col), c = key(y, col);
			if (typeof a === 'number' && isNaN(a))
				a = -Infinity;
			if (typeof c === 'number' && isNaN(c))
				c = -Infinity;
			var r = a < c ? -1 : a > c ? 1 : 0;
			return dir === 'asc' ? r : -r;
		});
		rows.forEach(function (r) { b.appendChild(r); });
		var hs = t.tHead.rows[0].cells;
		for (var i = 0; i < hs.length; i++)
			hs[i].removeAttribute('data-dir');
		hs[col].setAttribute('data-dir', dir);
	}

	document.querySelectorAll('table.sortable').forEach(function (t) {
		var hs = t.tHead.rows[0].cells;
		for (var i = 0; i < hs.length; i++) {
			(function (col) {
				var h = hs[col];
				h.title = 'sort by this column';
				h.addEventListener('click', function () {
					var d = h.getAttribute('data-dir');
					sort(t, col, d === 'desc' ? 'asc' : 'desc');
				});
				if (h.getAttribute('data-default'))
					sort(t, col, h.getAttribute('data-default'));
			})(i);
		}
	});
	document.body.setAttribute('data-js', 'ready');
})();
