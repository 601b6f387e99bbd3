#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int fuzz_split_args(const uint8_t *data, size_t size, const char *prog, char **argv,
		    char **storage)
{
	char *buf = malloc(size + 1);
	*storage = buf;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	int argc = 0;
	argv[argc++] = (char *)prog;
	for (char *p = buf; size && argc < FUZZ_MAX_ARGS + 1;) {
		char *nl = memchr(p, '\n', (size_t)(buf + size - p));
		argv[argc++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	argv[argc] = NULL;
	return argc;
}
