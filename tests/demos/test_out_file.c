/* Output files written whole (demos/common/out_file.h): a new file, an
 * older one replaced with its permissions, a link written through and
 * kept, a failed write that leaves the older file as it was and nothing
 * beside it, a device written in place, a name too long to write beside,
 * the file stdout writes to added to through stdout's descriptor, and a
 * file of another owner kept theirs. */
#include "check.h"
#include "out_file.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char g_dir[64];

static const char *in_dir(const char *name)
{
	static char buf[8][4400];
	static int next;
	char *b = buf[next++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", g_dir, name);
	return b;
}

/* The case's folder goes at exit, with what is in it. */
static void remove_dir(void)
{
	DIR *d = opendir(g_dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(in_dir(e->d_name));
	if (d)
		closedir(d);
	rmdir(g_dir);
}

static void fresh_dir(void)
{
	snprintf(g_dir, sizeof g_dir, "/tmp/srcprof-out-file-XXXXXX");
	if (!mkdtemp(g_dir))
		abort();
	atexit(remove_dir);
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Files in the folder besides those named (the temporary ones left). */
static int others(const char *a, const char *b)
{
	DIR *d = opendir(g_dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' && strcmp(e->d_name, a) && (!b || strcmp(e->d_name, b)))
			n++;
	if (d)
		closedir(d);
	return n;
}

static bool write_text(const char *path, const char *text)
{
	out_file o;
	FILE *f = out_open(&o, path, "w");
	if (!f)
		return false;
	fputs(text, f);
	return out_commit(&o);
}

TEST(a_new_file_and_an_older_one_replaced_with_its_mode)
{
	fresh_dir();
	CHECK(write_text(in_dir("a.csv"), "one\n"));
	CHECK_STR(slurp(in_dir("a.csv")), "one\n");
	chmod(in_dir("a.csv"), 0640);
	CHECK(write_text(in_dir("a.csv"), "two\n"));
	CHECK_STR(slurp(in_dir("a.csv")), "two\n");
	struct stat st;
	CHECK(stat(in_dir("a.csv"), &st) == 0 && (st.st_mode & 0777) == 0640);
	CHECK_EQ(others("a.csv", NULL), 0);
}

TEST(a_link_is_written_through_and_stays_a_link)
{
	fresh_dir();
	CHECK(write_text(in_dir("real.json"), "old\n"));
	CHECK(symlink("real.json", in_dir("link.json")) == 0);
	CHECK(write_text(in_dir("link.json"), "new\n"));
	struct stat st;
	CHECK(lstat(in_dir("link.json"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK_STR(slurp(in_dir("real.json")), "new\n");
	CHECK_EQ(others("real.json", "link.json"), 0);
}

TEST(an_abandoned_or_failed_write_leaves_the_older_file)
{
	fresh_dir();
	CHECK(write_text(in_dir("keep.csv"), "old\n"));
	out_file o;
	FILE *f = out_open(&o, in_dir("keep.csv"), "w");
	CHECK(f && !out_in_place(&o));
	fputs("half", f);
	out_abandon(&o);
	CHECK_STR(slurp(in_dir("keep.csv")), "old\n");
	CHECK_EQ(others("keep.csv", NULL), 0);
}

TEST(a_device_is_written_in_place_and_its_failure_named)
{
	if (access("/dev/full", W_OK) != 0)
		CHECK_SKIP("no /dev/full here");
	out_file o;
	FILE *f = out_open(&o, "/dev/full", "w");
	CHECK(f && out_in_place(&o));
	for (int i = 0; i < 10000; i++)
		fputs("0123456789", f);
	errno = 0;
	CHECK(!out_commit(&o));
	CHECK_EQ(errno, ENOSPC);
}

TEST(a_name_too_long_to_write_beside_is_written_in_place)
{
	fresh_dir();
	char name[256];
	memset(name, 'n', 250);
	memcpy(name + 250, ".csv", 5);
	out_file o;
	FILE *f = out_open(&o, in_dir(name), "w");
	CHECK(f && out_in_place(&o));
	fputs("long\n", f);
	CHECK(out_commit(&o));
	CHECK_STR(slurp(in_dir(name)), "long\n");
}

TEST(the_file_stdout_writes_to_is_added_to_through_stdout)
{
	fresh_dir();
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	FILE *log = fopen(in_dir("log.txt"), "w");
	CHECK(log && dup2(fileno(log), STDOUT_FILENO) >= 0);
	fputs("table\n", stdout);
	CHECK(write_text("/dev/stdout", "csv\n"));
	fputs("summary\n", stdout);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	fclose(log);
	CHECK_STR(slurp(in_dir("log.txt")), "table\ncsv\nsummary\n");
}

/* What a second Ctrl-C calls before it ends the process: the files being
 * written beside their paths go, the paths stay as they were. */
TEST(temporaries_are_removed_for_a_second_signal)
{
	fresh_dir();
	CHECK(write_text(in_dir("keep.csv"), "old\n"));
	out_file a, b;
	CHECK(out_open(&a, in_dir("keep.csv"), "w") && out_open(&b, in_dir("new.csv"), "w"));
	CHECK_EQ(others("keep.csv", NULL), 2);
	out_remove_temporaries();
	CHECK_EQ(others("keep.csv", NULL), 0);
	CHECK_STR(slurp(in_dir("keep.csv")), "old\n");
	out_abandon(&a);
	out_abandon(&b);
}

/* Writes path as user 65534 (nobody) in a child: 0 when written, 1 when
 * refused, 2 when the child could not become that user. */
static int write_as_nobody(const char *path, const char *text)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(2);
		_exit(write_text(path, text) ? 0 : 1);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	return WEXITSTATUS(status);
}

/* A file replaced keeps its owner and group. Root gives them to the new
 * file; a user who may write another's file but not give it away has it
 * copied over, and one who may not write it is refused, as in place
 * (a rename would have replaced a file it cannot write). */
TEST(a_replaced_file_keeps_its_owner)
{
	if (geteuid() != 0)
		CHECK_SKIP("needs root to make files of another owner (uid %u)", (unsigned)geteuid());
	fresh_dir();
	chmod(g_dir, 0777);
	struct stat st;
	CHECK(write_text(in_dir("theirs.csv"), "old\n"));
	CHECK(chown(in_dir("theirs.csv"), 65534, 65534) == 0);
	CHECK(write_text(in_dir("theirs.csv"), "root\n"));
	CHECK(stat(in_dir("theirs.csv"), &st) == 0 && st.st_uid == 65534 && st.st_gid == 65534);
	CHECK_STR(slurp(in_dir("theirs.csv")), "root\n");

	CHECK(write_text(in_dir("roots.csv"), "old\n"));
	CHECK(chmod(in_dir("roots.csv"), 0666) == 0);
	ino_t ino = (stat(in_dir("roots.csv"), &st), st.st_ino);
	int r = write_as_nobody(in_dir("roots.csv"), "nobody\n");
	if (r == 2)
		CHECK_SKIP("could not run a child as uid 65534");
	CHECK_EQ(r, 0);
	CHECK(stat(in_dir("roots.csv"), &st) == 0 && st.st_uid == 0 && st.st_gid == 0);
	CHECK(st.st_ino == ino && (st.st_mode & 0777) == 0666);
	CHECK_STR(slurp(in_dir("roots.csv")), "nobody\n");

	CHECK(chmod(in_dir("roots.csv"), 0644) == 0);
	CHECK_EQ(write_as_nobody(in_dir("roots.csv"), "refused\n"), 1);
	CHECK_STR(slurp(in_dir("roots.csv")), "nobody\n");
	CHECK_EQ(others("theirs.csv", "roots.csv"), 0);
}
