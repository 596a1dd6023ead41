/* rundir.c — a run's files in build/run: claimed, guarded, and those of runs that died swept (rundir.h). */
#define _GNU_SOURCE /* nftw's FTW_DEPTH, FTW_PHYS */
#include "harness/suite/rundir.h"
#include "harness/base/guard.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OWNER "owner-"
#define BOOT_ID_MAX 64

/* The names a run's files begin with, before "-PID" (rundir.h). */
static const char *const prefixes[] = { "records", "list", "console", "stack", "scn", "vms", NULL };

static char claimed[PATH_MAX]; /* the directory this process claimed ("" none); the guard's cleanup reads it */
static long claimer;           /* and this process's pid (the guard has its own) */

/* This kernel's boot id into id; 0 or -1. */
static int boot_id(char *id, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	int ok = f && fgets(id, (int)len, f) != NULL;

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	id[strcspn(id, "\n")] = '\0';
	return 0;
}

/* pid's start time (clock ticks after boot, /proc/PID/stat's 22nd field); 0: no such process. */
static unsigned long long start_time(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')'))) /* the name may hold blanks and parentheses: fields follow the last ')' */
		return 0;
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

/* This kernel's boot time (seconds since the epoch, /proc/stat's btime); 0 unknown. */
static long long boot_time(void)
{
	char line[256];
	long long t = 0;
	FILE *f = fopen("/proc/stat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &t) == 1)
			break;
	if (f)
		fclose(f);
	return t;
}

/* The pid a name of dir's is of when it is a run's file ("PREFIX-PID" then end, '.' or '-'); else -1. */
static long name_pid(const char *name)
{
	for (size_t i = 0; prefixes[i]; i++) {
		size_t pl = strlen(prefixes[i]);
		char *end;
		long pid;

		if (strncmp(name, prefixes[i], pl) != 0 || name[pl] != '-' || name[pl + 1] < '0' || name[pl + 1] > '9')
			continue;
		pid = strtol(name + pl + 1, &end, 10);
		if (*end == '\0' || *end == '.' || *end == '-')
			return pid;
	}
	return -1;
}

static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void rundir_remove_pid(const char *dir, long pid)
{
	char path[PATH_MAX + 300];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)) != NULL)
		if (name_pid(e->d_name) == pid) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			nftw(path, remove_one, 8, FTW_DEPTH | FTW_PHYS);
		}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/" OWNER "%ld", dir, pid);
	unlink(path);
}

/*
 * Whether the owner file path (of pid) says its run is gone: of this kernel
 * (boot id) and pid is not the process that wrote it (none, or another
 * started since), or of another kernel and older than this one's boot. A
 * file that does not read says nothing: kept.
 */
static int owner_gone(const char *path, long pid, const char *boot)
{
	char id[BOOT_ID_MAX + 1] = "";
	unsigned long long t = 0;
	struct stat sb;
	FILE *f = fopen(path, "r");
	int n = f ? fscanf(f, "rdmacheck-owner %64s %llu", id, &t) : 0;

	if (f)
		fclose(f);
	if (n != 2 || stat(path, &sb) != 0)
		return 0;
	if (strcmp(id, boot) != 0)
		return sb.st_mtime < boot_time();
	return start_time(pid) != t;
}

size_t rundir_sweep(const char *dir)
{
	char boot[BOOT_ID_MAX + 1], path[PATH_MAX + 300];
	size_t gone = 0, n = 0, room = 0;
	long *dead = NULL, pid;
	struct dirent *e;
	DIR *d;

	if (boot_id(boot, sizeof(boot)) || !(d = opendir(dir)))
		return 0;
	while ((e = readdir(d)) != NULL) {
		char *end;

		if (strncmp(e->d_name, OWNER, strlen(OWNER)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(OWNER), &end, 10);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (*end || pid <= 0 || pid == (long)getpid() || !owner_gone(path, pid, boot))
			continue;
		if (n == room) { /* removed once the directory is read: not while readdir walks it */
			long *nd = realloc(dead, (room ? 2 * room : 8) * sizeof(*nd));

			if (!nd)
				break;
			dead = nd;
			room = room ? 2 * room : 8;
		}
		dead[n++] = pid;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++, gone++)
		rundir_remove_pid(dir, dead[i]);
	free(dead);
	return gone;
}

int rundir_own(const char *dir, long pid)
{
	char boot[BOOT_ID_MAX + 1], path[PATH_MAX + 64];
	unsigned long long t = start_time(pid);
	FILE *f;

	if (boot_id(boot, sizeof(boot)) || !t)
		return -ESRCH;
	snprintf(path, sizeof(path), "%s/" OWNER "%ld", dir, pid);
	if (!(f = fopen(path, "w")))
		return -errno;
	fprintf(f, "rdmacheck-owner %s %llu\n", boot, t);
	return fclose(f) == 0 ? 0 : -errno;
}

/* The guard's cleanup: this run's files (it died). */
static void remove_claimed(void *arg)
{
	(void)arg;
	rundir_remove_pid(claimed, claimer);
}

void rundir_claim(const char *dir)
{
	size_t swept;
	int rc;

	if (claimed[0])
		return;
	snprintf(claimed, sizeof(claimed), "%s", dir);
	claimer = (long)getpid();
	if ((swept = rundir_sweep(dir)) > 0)
		fprintf(stderr, "rdmacheck: removed the files of %zu run%s that ended without removing them from %s\n",
			swept, swept == 1 ? "" : "s", dir);
	if ((rc = rundir_own(dir, claimer)) != 0)
		fprintf(stderr, "rdmacheck: cannot write %s/" OWNER "%ld: %s\n", dir, claimer, strerror(-rc));
	if ((rc = guard_start(remove_claimed, NULL)) != 0)
		fprintf(stderr, "rdmacheck: no guard for this run (its processes outlive a SIGKILL): %s\n",
			strerror(-rc));
}

void rundir_release(void)
{
	char path[PATH_MAX + 64];

	if (!claimed[0])
		return;
	guard_end();
	snprintf(path, sizeof(path), "%s/" OWNER "%ld", claimed, (long)getpid());
	unlink(path);
}
