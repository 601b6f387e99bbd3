#include "bench_page.h"
#include "bench_svg.h"

#include <math.h>
#include <stdlib.h>

static const char STYLE[] =
	"body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:14px;color:#222;"
	"margin:0;background:#f3f4f6}\n"
	"main{max-width:1000px;margin:0 auto;padding:24px 28px;background:#fff}\n"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;"
	"border-bottom:2px solid #3b7dd8;padding-bottom:4px}h3{font-size:15px;margin:20px 0 6px}\n"
	"p.lead{color:#555;margin:0 0 16px}\n"
	"table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}\n"
	"th,td{padding:3px 8px;border-bottom:1px solid #e4e4e4;text-align:right;white-space:nowrap}\n"
	"th{background:#eef2f7;position:sticky;top:0}\n"
	"td.t,th.t{text-align:left}\n"
	"table.sortable th{cursor:pointer;user-select:none}\n"
	"table.sortable th:hover{background:#dde6f2}\n"
	"th[data-dir=desc]::after{content:' \\25BC';font-size:10px}\n"
	"th[data-dir=asc]::after{content:' \\25B2';font-size:10px}\n"
	"tbody tr:nth-child(even){background:#fafafa}\n"
	"table.meta td{text-align:left;white-space:normal}table.meta td:first-child{color:#666}\n"
	".warn{background:#fff4d6;border-left:4px solid #e0a800;padding:6px 10px;margin:8px 0}\n"
	".bad{background:#fde8e6;border-left:4px solid #c0392b;padding:6px 10px;margin:8px 0}\n"
	".good{background:#e6f4ea;border-left:4px solid #1e8449;padding:6px 10px;margin:8px 0}\n"
	"td.costlier{color:#c0392b;font-weight:bold}td.cheaper{color:#1e8449;font-weight:bold}\n"
	"td.noisy{color:#8a6d00;white-space:normal;text-align:left;min-width:10em;max-width:14em;"
	"font-size:12px}\n"
	"table.changes td,table.changes th{padding:3px 5px}\n"
	"table.changes td.v{white-space:normal;max-width:7em}\n"
	"svg{display:block;margin:8px 0;max-width:100%;height:auto}\n"
	".scroll{max-height:560px;overflow:auto;border:1px solid #e4e4e4;margin:8px 0}\n"
	".scroll table{margin:0}\n"
	"footer{color:#777;font-size:12px;margin-top:32px}\n";

/* Sorting: numbers by data-v (a cell without one sorts as text), rows
 * moved in place; a click on the sorted column reverses it. */
static const char SCRIPT[] =
	"(function(){\n"
	"function key(row,col){var c=row.cells[col];if(!c)return '';"
	"var v=c.getAttribute('data-v');return v===null?c.textContent:parseFloat(v);}\n"
	"function sort(t,col,dir){var b=t.tBodies[0];if(!b)return;"
	"var rows=Array.prototype.slice.call(b.rows);"
	"rows.sort(function(x,y){var a=key(x,col),c=key(y,col);"
	"if(typeof a==='number'&&isNaN(a))a=-Infinity;if(typeof c==='number'&&isNaN(c))c=-Infinity;"
	"var r=a<c?-1:a>c?1:0;return dir==='asc'?r:-r;});"
	"rows.forEach(function(r){b.appendChild(r);});"
	"var hs=t.tHead.rows[0].cells;for(var i=0;i<hs.length;i++)hs[i].removeAttribute('data-dir');"
	"hs[col].setAttribute('data-dir',dir);}\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){"
	"var hs=t.tHead.rows[0].cells;"
	"for(var i=0;i<hs.length;i++){(function(col){var h=hs[col];"
	"h.title='sort by this column';"
	"h.addEventListener('click',function(){"
	"var d=h.getAttribute('data-dir');sort(t,col,d==='desc'?'asc':'desc');});"
	"if(h.getAttribute('data-default'))sort(t,col,h.getAttribute('data-default'));"
	"})(i);}});\n"
	"document.body.setAttribute('data-js','ready');\n"
	"})();\n";

void page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	page_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", STYLE);
}

void page_end(FILE *f)
{
	fprintf(f, "</main>\n<script>\n%s</script>\n</body>\n</html>\n", SCRIPT);
}

void page_text(FILE *f, const char *s)
{
	svg_text(f, s);
}

void page_num(FILE *f, const char *fmt, double v)
{
	if (!isfinite(v)) {
		fputs("<td data-v=\"NaN\">-</td>", f);
		return;
	}
	fprintf(f, "<td data-v=\"%.9g\">", v);
	fprintf(f, fmt, v);
	fputs("</td>", f);
}

FILE *page_chart_open(page_chart *c)
{
	*c = (page_chart){0};
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

void page_chart_close(FILE *out, page_chart *c, double width, double height)
{
	if (c->f)
		fclose(c->f);
	if (c->buf && height > 0)
		fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			     "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
			     "font-size=\"12\">\n%s</svg>\n",
			width, height, width, height, c->buf);
	free(c->buf);
	*c = (page_chart){0};
}
