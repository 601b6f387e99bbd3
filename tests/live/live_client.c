/* The live view's test client (live_client.h). */
#include "live_client.h"

#include "srcprof/export.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

char *live_get(const srcprof_live *live, const char *path)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(srcprof_live_port(live))};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	const char *token = strstr(srcprof_live_url(live), "token=") + 6;
	char req[512];
	int n = snprintf(req, sizeof req,
			 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nAuthorization: Bearer %s\r\n"
			 "Connection: close\r\n\r\n",
			 path, srcprof_live_port(live), token);
	if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
		close(fd);
		return NULL;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	for (; buf;) {
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 60000) <= 0)
			break;
		if (len == cap) {
			char *more = realloc(buf, cap * 2 + 1);
			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
		ssize_t r = recv(fd, buf + len, cap - len, 0);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf)
		return NULL;
	buf[len] = '\0';
	char *body = strstr(buf, "\r\n\r\n");
	if (strncmp(buf, "HTTP/1.1 200", 12) != 0 || !body) {
		printf("GET %s: %.200s\n", path, buf);
		free(buf);
		return NULL;
	}
	memmove(buf, body + 4, strlen(body + 4) + 1);
	return buf;
}

const cJSON *live_source_named(const cJSON *snap, const char *name)
{
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(snap, "sources"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(s, "source")), name))
			return s;
	return NULL;
}

int64_t live_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

const char *live_str(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, key));
	return s ? s : "";
}

int live_csv_rows(char *csv, char **rows, int max)
{
	int n = 0;
	bool header = true;
	for (char *line = strtok(csv, "\n"); line && n < max; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		if (header) {
			header = false;
			continue;
		}
		rows[n++] = line;
	}
	return n;
}

bool live_metrics_valid(char *text)
{
	regex_t sample;
	regcomp(&sample,
		"^srcprof_[a-z0-9_]+(\\{([a-z_]+=\"([^\"\\\\]|\\\\.)*\",?)*\\})? -?[0-9.e+-]+$",
		REG_EXTENDED | REG_NOSUB);
	char *lines[4096], *types[512];
	int n = 0, nt = 0;
	bool ok = true;
	for (char *line = strtok(text, "\n"); line && n < 4096; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "# TYPE ", 7)) {
			for (int i = 0; i < nt; i++)
				if (!strncmp(types[i], line + 7, strcspn(line + 7, " ") + 1)) {
					printf("TYPE twice: %s\n", line);
					ok = false;
				}
			if (nt < 512)
				types[nt++] = line + 7;
			continue;
		}
		if (line[0] == '#')
			continue;
		if (regexec(&sample, line, 0, NULL, 0) != 0) {
			printf("malformed: %s\n", line);
			ok = false;
		}
		size_t name_len = strcspn(line, "{ ");
		bool typed = false;
		for (int i = 0; i < nt && !typed; i++)
			typed = !strncmp(types[i], line, name_len) && types[i][name_len] == ' ';
		if (!typed) {
			printf("no TYPE before: %s\n", line);
			ok = false;
		}
		size_t series_len = (size_t)(strrchr(line, ' ') - line);
		for (int i = 0; i < n; i++)
			if (!strncmp(lines[i], line, series_len) && lines[i][series_len] == ' ') {
				printf("twice: %.*s\n", (int)series_len, line);
				ok = false;
			}
		lines[n++] = line;
	}
	regfree(&sample);
	printf("/metrics: %d samples%s\n", n, ok ? ", well formed, each series once" : "");
	return ok && n > 0;
}

bool live_csv_equals_the_profilers(const srcprof_live *live)
{
	char *mine = NULL;
	size_t mine_len = 0;
	FILE *f = open_memstream(&mine, &mine_len);
	int rows = source_profiler_write_csv(f);
	fclose(f);
	char *theirs = live_get(live, "/api/v1/snapshot?format=csv");
	if (!theirs || rows <= 0) {
		free(mine);
		free(theirs);
		return false;
	}
	if (!strstr(theirs, ",gpu_sum_by_queue_ns,work_frames,") ||
	    !strstr(theirs, ",cs_invocations_per_frame,type\n")) {
		printf("the live CSV's header lacks gpu_sum_by_queue_ns and the work columns "
		       "before type:\n%s\n",
		       theirs);
		free(mine);
		free(theirs);
		return false;
	}
	char *a[16], *b[16];
	int na = live_csv_rows(mine, a, 16), nb = live_csv_rows(theirs, b, 16);
	bool ok = na == rows && nb == na;
	for (int i = 0; ok && i < na; i++) {
		bool found = false;
		for (int j = 0; j < nb && !found; j++)
			found = !strncmp(b[j], a[i], strlen(a[i])) && b[j][strlen(a[i])] == ',' &&
				!strchr(b[j] + strlen(a[i]) + 1, ',');
		if (!found)
			printf("the profiler's row %s is not in the live CSV\n", a[i]);
		ok = found;
	}
	printf("CSV: %d rows equal to the profiler's%s\n", ok ? na : 0, ok ? "" : " (FAILED)");
	free(mine);
	free(theirs);
	return ok;
}
