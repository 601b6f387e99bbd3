/* libFuzzer targets. Each file defines LLVMFuzzerTestOneInput; built with
 * -fsanitize=fuzzer (scripts/fuzz.sh) it fuzzes, built without it links
 * fuzz_main.c and replays the corpus and the kept crashes as a test. */
#ifndef TESTS_FUZZ_H
#define TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Splits data at newlines into at most FUZZ_MAX_ARGS arguments after
 * argv[0] = prog (bytes after a NUL in an argument are dropped, as a shell
 * would). Returns argc; argv and the strings live in storage, which must
 * be freed with free(). */
#define FUZZ_MAX_ARGS 64
int fuzz_split_args(const uint8_t *data, size_t size, const char *prog, char **argv,
		    char **storage);

#endif
