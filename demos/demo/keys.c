/* The hotkeys' names (--script) and help lines (--help, F1, README). */
#include "keys.h"

#include "engine/keys.h"

#include <string.h>
#include <strings.h>


static const struct {
	const char *name;
	int key;
} g_keys[] = {
	{"P", ENG_KEY_P},
	{"G", ENG_KEY_G},
	{"M", ENG_KEY_M},
	{"O", ENG_KEY_O},
	{"Z", ENG_KEY_Z},
	{"F1", ENG_KEY_F1},
	{"TAB", ENG_KEY_TAB},
	{"UP", ENG_KEY_UP},
	{"DOWN", ENG_KEY_DOWN},
	{"PAGEUP", ENG_KEY_PAGE_UP},
	{"PAGEDOWN", ENG_KEY_PAGE_DOWN},
	{"HOME", ENG_KEY_HOME},
	{"END", ENG_KEY_END},
	{"ENTER", ENG_KEY_ENTER},
	{"C", ENG_KEY_C},
	{"T", ENG_KEY_T},
	{"S", ENG_KEY_S},
	{"L", ENG_KEY_L},
	{"+", ENG_KEY_EQUAL},
	{"PLUS", ENG_KEY_EQUAL},
	{"-", ENG_KEY_MINUS},
	{"MINUS", ENG_KEY_MINUS},
	{"1", ENG_KEY_1},
	{"2", ENG_KEY_2},
	{"3", ENG_KEY_3},
	{"4", ENG_KEY_4},
	{"5", ENG_KEY_5},
	{"6", ENG_KEY_6},
	{"7", ENG_KEY_7},
	{"8", ENG_KEY_8},
	{"9", ENG_KEY_9},
	{"SPACE", ENG_KEY_SPACE},
	{"V", ENG_KEY_V},
	{"W", ENG_KEY_W},
	{"U", ENG_KEY_U},
	{"ESC", ENG_KEY_ESCAPE},
};
#define N_KEYS (sizeof g_keys / sizeof g_keys[0])

int keys_from_name(const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcasecmp(g_keys[i].name, name) == 0)
			return g_keys[i].key;
	return -1;
}

const char *const *keys_script_names(void)
{
	/* Filled on every call with the same values: no first-call race. */
	static const char *names[N_KEYS + 1];
	for (size_t i = 0; i < N_KEYS; i++)
		names[i] = g_keys[i].name;
	return names;
}

size_t keys_script_count(void)
{
	return N_KEYS;
}

void keys_names(char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < N_KEYS && used < size; i++) {
		/* 1-9 as one range. */
		if (g_keys[i].name[0] >= '2' && g_keys[i].name[0] <= '9')
			continue;
		const char *n = g_keys[i].name[0] == '1' ? "1-9" : g_keys[i].name;
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", n);
	}
}

static const struct {
	const char *keys, *what;
} g_help[] = {
	{"P", "profiler on/off"},
	{"G", "GPU timing on/off (off: its cells read \"off\", sorted by CPU)"},
	{"M", "measure now: GPU-time every frame until 30 samples"},
	{"O", "overlay on/off"},
	{"Z", "overlay scale: auto, 1, 1.5, 2, 3, 4"},
	{"F1", "this help"},
	{"Tab", "sort by GPU p50, GPU sum, rend p50, rend sum, tick, name"},
	{"Up/Down", "select a source"},
	{"PgUp/PgDn", "scroll a page (Home/End: first/last)"},
	{"Enter", "the selected source's detail: passes, history, samples"},
	{"C", "CSV snapshot"},
	{"T", "5-second trace (Perfetto JSON)"},
	{"S", "screenshot (PNG)"},
	{"L", "log on/off: a CSV row per source per second"},
	{"+ / -", "add / remove 10 sources (work scene: its sphere's triangles)"},
	{"1-9", "scene: default grid multiview media effects calibrated stress tiles work"},
	{"W", "the table: time or work (--work: each source's work per frame)"},
	{"Space", "pause ticking"},
	{"V", "vsync on/off"},
	{"U", "the live view's URL again (--serve)"},
	{"Esc", "quit (prints the table)"},
};

size_t keys_help_count(void)
{
	return sizeof g_help / sizeof g_help[0];
}

void keys_help(size_t i, const char **keys, const char **what)
{
	*keys = i < keys_help_count() ? g_help[i].keys : "";
	*what = i < keys_help_count() ? g_help[i].what : "";
}

/* Prints text from column `indent`, wrapped at spaces before column 79;
 * the first line continues the current one. */
static void wrapped(FILE *f, const char *text, int indent)
{
	const int width = 79 - indent;
	while (*text) {
		int len = (int)strlen(text), cut = len;
		if (len > width) {
			cut = width;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = width;
		}
		fprintf(f, "%.*s\n", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(f, "%*s", indent, "");
	}
}

void keys_print(FILE *f)
{
	char names[512];
	keys_names(names, sizeof names);
	fprintf(f, "\nhotkeys (in the window; --script sends them by name, in any case:\n  ");
	wrapped(f, names, 2);
	fprintf(f, "):\n");
	for (size_t i = 0; i < keys_help_count(); i++) {
		fprintf(f, "  %-24s", g_help[i].keys);
		wrapped(f, g_help[i].what, 26);
	}
}
