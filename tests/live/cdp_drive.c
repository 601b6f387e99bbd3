/* cdp_drive: loads a page in real headless Chromium and runs a test script
 * inside it, through the DevTools protocol over --remote-debugging-pipe
 * (JSON messages ending in a NUL on fds 3 and 4: no WebSocket needed).
 *
 *   cdp_drive CHROMIUM URL SCRIPT.js OUTDIR [--size WxH] [--screenshot FILE]
 *             [--timeout S]
 *
 * Downloads the page makes land in OUTDIR. SCRIPT.js is an expression whose
 * value (a promise is awaited) is an object {ok, failures, notes}; it is
 * printed as JSON. Then the driver waits for every download to finish,
 * takes the screenshot, and exits 0 when ok is true, 1 when not, 2 when
 * the browser could not be driven. Every wait is bounded by --timeout
 * (default 240 s). */
#include <cjson/cJSON.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int g_to = -1, g_from = -1; /* our ends of Chromium's fds 3 and 4 */
static pid_t g_pid;
static int g_next_id = 1;
static char *g_in;
static size_t g_in_len, g_in_cap;
static double g_deadline;
static int g_downloads_started, g_downloads_done;
static const char *g_session;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "cdp_drive: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	if (g_pid > 0)
		kill(g_pid, SIGKILL);
	exit(2);
}

static void send_msg(cJSON *msg)
{
	char *text = cJSON_PrintUnformatted(msg);
	size_t len = strlen(text) + 1; /* the NUL ends the message */
	for (size_t off = 0; off < len;) {
		ssize_t n = write(g_to, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("writing to the browser failed: %s", strerror(errno));
		off += (size_t)n;
	}
	free(text);
}

/* The next whole message from the browser, or NULL at the deadline. */
static cJSON *read_msg(void)
{
	for (;;) {
		char *nul = g_in_len ? memchr(g_in, '\0', g_in_len) : NULL;
		if (nul) {
			cJSON *m = cJSON_Parse(g_in);
			size_t used = (size_t)(nul - g_in) + 1;
			memmove(g_in, g_in + used, g_in_len - used);
			g_in_len -= used;
			if (!m)
				die("the browser sent something that is not JSON");
			return m;
		}
		double left = g_deadline - now_s();
		if (left <= 0)
			return NULL;
		struct pollfd p = {g_from, POLLIN, 0};
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return NULL;
		if (g_in_cap - g_in_len < 65536) {
			g_in_cap = g_in_cap ? g_in_cap * 2 : 1 << 20;
			g_in = realloc(g_in, g_in_cap);
			if (!g_in)
				die("out of memory");
		}
		ssize_t n = read(g_from, g_in + g_in_len, g_in_cap - g_in_len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("the browser closed its pipe (it crashed or quit)");
		g_in_len += (size_t)n;
	}
}

/* Events that matter while waiting for anything: downloads. */
static void note_event(const cJSON *m)
{
	const cJSON *method = cJSON_GetObjectItem(m, "method");
	if (!cJSON_IsString(method))
		return;
	if (!strcmp(method->valuestring, "Browser.downloadWillBegin")) {
		g_downloads_started++;
	} else if (!strcmp(method->valuestring, "Browser.downloadProgress")) {
		const cJSON *st = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "state");
		if (cJSON_IsString(st) && !strcmp(st->valuestring, "completed"))
			g_downloads_done++;
		if (cJSON_IsString(st) && !strcmp(st->valuestring, "canceled"))
			die("a download was canceled");
	}
}

/* Sends method(params) (to the page's session when `page`) and returns its
 * result (the caller deletes it); dies on an error or at the deadline. */
static cJSON *call(const char *method, cJSON *params, bool page)
{
	int id = g_next_id++;
	cJSON *msg = cJSON_CreateObject();
	cJSON_AddNumberToObject(msg, "id", id);
	cJSON_AddStringToObject(msg, "method", method);
	cJSON_AddItemToObject(msg, "params", params ? params : cJSON_CreateObject());
	if (page && g_session)
		cJSON_AddStringToObject(msg, "sessionId", g_session);
	send_msg(msg);
	cJSON_Delete(msg);
	for (;;) {
		cJSON *m = read_msg();
		if (!m)
			die("no answer to %s in time", method);
		const cJSON *mid = cJSON_GetObjectItem(m, "id");
		if (cJSON_IsNumber(mid) && mid->valueint == id) {
			const cJSON *err = cJSON_GetObjectItem(m, "error");
			if (err) {
				char *e = cJSON_PrintUnformatted(err);
				die("%s failed: %s", method, e);
			}
			cJSON *result = cJSON_DetachItemFromObject(m, "result");
			cJSON_Delete(m);
			return result ? result : cJSON_CreateObject();
		}
		note_event(m);
		cJSON_Delete(m);
	}
}

/* Evaluates `expr` in the page (awaiting a promise) and returns its value. */
static cJSON *evaluate(const char *expr)
{
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "expression", expr);
	cJSON_AddBoolToObject(p, "awaitPromise", true);
	cJSON_AddBoolToObject(p, "returnByValue", true);
	cJSON *r = call("Runtime.evaluate", p, true);
	const cJSON *exc = cJSON_GetObjectItem(r, "exceptionDetails");
	if (exc) {
		char *e = cJSON_Print(exc);
		fprintf(stderr, "cdp_drive: the script threw:\n%s\n", e);
		free(e);
		cJSON_Delete(r);
		return NULL;
	}
	cJSON *v = cJSON_DetachItemFromObject(cJSON_GetObjectItem(r, "result"), "value");
	cJSON_Delete(r);
	return v;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot read %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		die("cannot read %s", path);
	s[n] = '\0';
	fclose(f);
	return s;
}

static int b64(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static void write_base64(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	unsigned acc = 0;
	int bits = 0;
	for (const char *c = text; *c && *c != '='; c++) {
		int v = b64((unsigned char)*c);
		if (v < 0)
			continue;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			fputc((int)((acc >> bits) & 0xff), f);
		}
	}
	fclose(f);
}

static void launch(const char *chrome, const char *profile)
{
	int to[2], from[2];
	if (pipe(to) || pipe(from))
		die("pipe: %s", strerror(errno));
	g_pid = fork();
	if (g_pid < 0)
		die("fork: %s", strerror(errno));
	if (g_pid == 0) {
		/* Chromium reads commands on fd 3 and writes on fd 4. */
		int in = fcntl(to[0], F_DUPFD, 10), out = fcntl(from[1], F_DUPFD, 10);
		dup2(in, 3);
		dup2(out, 4);
		close(in);
		close(out);
		int null = open("/dev/null", O_WRONLY);
		if (!getenv("CDP_VERBOSE"))
			dup2(null, 2);
		char user_dir[1200];
		snprintf(user_dir, sizeof user_dir, "--user-data-dir=%s", profile);
		execl(chrome, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		      "--no-first-run", "--disable-background-networking", "--disable-component-update",
		      "--disable-sync", "--hide-scrollbars", "--remote-debugging-pipe",
		      "--disable-features=Translate,MediaRouter", user_dir, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	g_to = to[1];
	g_from = from[0];
	signal(SIGPIPE, SIG_IGN);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: cdp_drive CHROMIUM URL SCRIPT.js OUTDIR [--size WxH] "
				"[--screenshot FILE] [--timeout S]\n");
		return 2;
	}
	const char *chrome = argv[1], *url = argv[2], *script_path = argv[3], *dir = argv[4];
	const char *shot = NULL;
	int width = 1500, height = 1000;
	double timeout = 240;
	for (int i = 5; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--size"))
			sscanf(argv[i + 1], "%dx%d", &width, &height);
		else if (!strcmp(argv[i], "--screenshot"))
			shot = argv[i + 1];
		else if (!strcmp(argv[i], "--timeout"))
			timeout = atof(argv[i + 1]);
	}
	char *script = read_file(script_path);
	char profile[1100];
	snprintf(profile, sizeof profile, "%s/.chromium-profile", dir);
	g_deadline = now_s() + timeout;
	launch(chrome, profile);

	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "behavior", "allow");
	cJSON_AddStringToObject(p, "downloadPath", dir);
	cJSON_AddBoolToObject(p, "eventsEnabled", true);
	cJSON_Delete(call("Browser.setDownloadBehavior", p, false));

	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "url", "about:blank");
	cJSON *r = call("Target.createTarget", p, false);
	char target[128];
	snprintf(target, sizeof target, "%s", cJSON_GetObjectItem(r, "targetId")->valuestring);
	cJSON_Delete(r);
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "targetId", target);
	cJSON_AddBoolToObject(p, "flatten", true);
	r = call("Target.attachToTarget", p, false);
	g_session = strdup(cJSON_GetObjectItem(r, "sessionId")->valuestring);
	cJSON_Delete(r);

	p = cJSON_CreateObject();
	cJSON_AddNumberToObject(p, "width", width);
	cJSON_AddNumberToObject(p, "height", height);
	cJSON_AddNumberToObject(p, "deviceScaleFactor", 1);
	cJSON_AddBoolToObject(p, "mobile", false);
	cJSON_Delete(call("Emulation.setDeviceMetricsOverride", p, true));
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "url", url);
	cJSON_Delete(call("Page.navigate", p, true));
	/* Loaded: the page's script runs on its own from here. */
	for (;;) {
		cJSON *v = evaluate("document.readyState === 'complete' && !!document.getElementById('rows')");
		bool ready = cJSON_IsTrue(v);
		cJSON_Delete(v);
		if (ready)
			break;
		if (now_s() > g_deadline)
			die("the page did not load");
		usleep(100000);
	}
	cJSON *result = evaluate(script);
	int status = 1;
	if (result) {
		char *text = cJSON_Print(result);
		printf("%s\n", text);
		free(text);
		status = cJSON_IsTrue(cJSON_GetObjectItem(result, "ok")) ? 0 : 1;
		cJSON_Delete(result);
	}
	/* Downloads the script started: until each completed. */
	while (g_downloads_done < g_downloads_started) {
		cJSON *m = read_msg();
		if (!m)
			die("%d of %d downloads did not complete", g_downloads_started - g_downloads_done,
			    g_downloads_started);
		note_event(m);
		cJSON_Delete(m);
	}
	printf("downloads: %d\n", g_downloads_done);
	if (shot) {
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "format", "png");
		r = call("Page.captureScreenshot", p, true);
		write_base64(shot, cJSON_GetObjectItem(r, "data")->valuestring);
		cJSON_Delete(r);
		printf("screenshot: %s\n", shot);
	}
	/* Browser.close: it may quit before answering. */
	cJSON *bye = cJSON_CreateObject();
	cJSON_AddNumberToObject(bye, "id", g_next_id++);
	cJSON_AddStringToObject(bye, "method", "Browser.close");
	send_msg(bye);
	cJSON_Delete(bye);
	int ws;
	for (int i = 0; i < 100 && waitpid(g_pid, &ws, WNOHANG) == 0; i++)
		usleep(50000);
	kill(g_pid, SIGKILL);
	waitpid(g_pid, &ws, 0);
	free(script);
	return status;
}
