#include "json_check.h"

#include <math.h>
#include <stdlib.h>

int failures;

char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s && fread(s, 1, (size_t)n, f) == (size_t)n) {
		s[n] = '\0';
	} else {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	EXPECT(cJSON_IsNumber(v), "missing number '%s'", key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}
