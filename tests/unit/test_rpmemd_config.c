/*
 * The target daemon's command line and rpmemd.conf (lib/rpmem/rpmemd_config.c)
 * as PMDK 1.12.1's rpmemd(1) has them: defaults, the search order (global
 * file, then $HOME/.rpmemd.conf; -c alone), the command line over the
 * files, "$HOME" in poolset-dir, the options PMDK's client and man page use,
 * and errors naming file:line:col. No RDMA.
 */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include "lib/rpmem/rpmemd_config.h"

#include <check.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char home[64];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A fresh $HOME; the "global" config file is $HOME/global.conf (not /etc). */
static void setup(void)
{
	snprintf(home, sizeof(home), "/tmp/rpmemd-conf-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(home));
	setenv("HOME", home, 1);
}

static void teardown(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/global.conf", home);
	unlink(p);
	snprintf(p, sizeof(p), "%s/.rpmemd.conf", home);
	unlink(p);
	snprintf(p, sizeof(p), "%s/my.conf", home);
	unlink(p);
	rmdir(home);
}

/* rpmemd_config_read of argv (NULL-terminated words) with $HOME/global.conf as the global file. */
static int rd(struct rpmemd_config *c, char *err, size_t errlen, ...)
{
	char *argv[16] = { "rpmemd" }, glob[128];
	int argc = 1;
	va_list ap;

	va_start(ap, errlen);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	snprintf(glob, sizeof(glob), "%s/global.conf", home);
	return rpmemd_config_read(c, argc, argv, glob, err, errlen);
}

START_TEST(test_defaults_are_rpmemd1s)
{
	struct rpmemd_config c;
	char err[256] = "";

	ck_assert_int_eq(rd(&c, err, sizeof(err), NULL), 0); /* what PMDK's client runs: no argument */
	ck_assert_int_eq(c.run, RPMEMD_SERVE);
	ck_assert_str_eq(c.poolset_dir, home);
	ck_assert_str_eq(c.log_file, "/var/log/rpmemd.log");
	ck_assert_int_eq(c.persist_apm, 0);
	ck_assert_int_eq(c.persist_general, 1);
	ck_assert_int_eq(c.use_syslog, 1);
	ck_assert_int_eq(c.log_level, RPMEMD_LOG_ERR);
	ck_assert_uint_eq(c.max_lanes, 16);
}
END_TEST

START_TEST(test_search_order_and_command_line_first)
{
	struct rpmemd_config c;
	char err[256] = "", p[128];

	snprintf(p, sizeof(p), "%s/global.conf", home);
	put(p, "# the machine's\npoolset-dir = /srv/global\nlog-level = warn\npersist-apm = yes\n");
	snprintf(p, sizeof(p), "%s/.rpmemd.conf", home);
	put(p, "poolset-dir = $HOME/poolsets/   # the user's, after the global one\nuse-syslog=no\n");
	ck_assert_int_eq(rd(&c, err, sizeof(err), NULL), 0);
	ck_assert_msg(strcmp(c.poolset_dir + strlen(home), "/poolsets/") == 0 && strncmp(c.poolset_dir, home, strlen(home)) == 0,
		      "%s", c.poolset_dir);
	ck_assert_int_eq(c.log_level, RPMEMD_LOG_WARN);
	ck_assert_int_eq(c.persist_apm, 1);
	ck_assert_int_eq(c.use_syslog, 0);
	/* the command line wins over both files */
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--poolset-dir", "/srv/cl", "--log-level", "debug", NULL), 0);
	ck_assert_str_eq(c.poolset_dir, "/srv/cl");
	ck_assert_int_eq(c.log_level, RPMEMD_LOG_DEBUG);
	/* -c: only that file (required), not the global nor the user's */
	snprintf(p, sizeof(p), "%s/my.conf", home);
	put(p, "log-file = /tmp/x.log\n");
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-c", p, NULL), 0);
	ck_assert_str_eq(c.poolset_dir, home);
	ck_assert_str_eq(c.log_file, "/tmp/x.log");
	ck_assert_int_eq(c.use_syslog, 0); /* log-file turns syslog off, as PMDK's set_option */
	ck_assert_int_eq(c.persist_apm, 0);
	snprintf(p, sizeof(p), "%s/none.conf", home);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--config", p, NULL), -EINVAL);
	ck_assert_msg(strstr(err, "none.conf: No such file"), "%s", err);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-c", "/dev/null", NULL), 0); /* no config at all */
	ck_assert_str_eq(c.poolset_dir, home);
}
END_TEST

START_TEST(test_command_line_options)
{
	struct rpmemd_config c;
	char err[256] = "";

	ck_assert_int_eq(rd(&c, err, sizeof(err), "--persist-apm", "--persist-general", "--use-syslog", "-t", "4",
			    "-n", "8", "-p", "9000", "--timeout", "3", "--pmem", NULL), 0);
	ck_assert_int_eq(c.persist_apm, 1);
	ck_assert_uint_eq(c.nthreads, 4);
	ck_assert_uint_eq(c.max_lanes, 8);
	ck_assert_uint_eq(c.port_base, 9000);
	ck_assert_int_eq(c.timeout_ms, 3000);
	ck_assert_int_eq(c.pmem, 1);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-r", "pool.set", "-f", "-s", NULL), 0);
	ck_assert_int_eq(c.run, RPMEMD_REMOVE);
	ck_assert_str_eq(c.rm_poolset, "pool.set");
	ck_assert_int_eq(c.force && c.pool_set, 1);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--remove", "p.set", NULL), 0);
	ck_assert_int_eq(c.force, 0);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-V", NULL), 0);
	ck_assert_int_eq(c.run, RPMEMD_VERSION);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--help", NULL), 0);
	ck_assert_int_eq(c.run, RPMEMD_HELP);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-v", NULL), 0);
	ck_assert_int_eq(c.log_level, RPMEMD_LOG_INFO);
	/* refusals */
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--log-level", "loud", NULL), -EINVAL);
	ck_assert_str_eq(err, "--log-level 'loud': err, warn, notice, info or debug");
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-t", "x", NULL), -EINVAL);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-n", "65", NULL), -EINVAL);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "-f", NULL), -EINVAL);
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--bogus", NULL), -EINVAL);
	ck_assert_str_eq(err, "unknown option '--bogus'");
	ck_assert_int_eq(rd(&c, err, sizeof(err), "--poolset-dir", NULL), -EINVAL);
	ck_assert_str_eq(err, "option '--poolset-dir' needs a value");
	ck_assert_int_eq(rd(&c, err, sizeof(err), "extra", NULL), -EINVAL);
}
END_TEST

/* Parsing text fails with exactly want. */
static void conf_fails(const char *text, const char *want)
{
	struct rpmemd_config c;
	char err[256] = "";

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(rpmemd_config_parse("r.conf", text, strlen(text), &c, 0, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strcmp(err, want) == 0, "'%s': got '%s', want '%s'", text, err, want);
}

START_TEST(test_config_errors_name_file_line_column)
{
	struct rpmemd_config c;
	char err[256] = "";
	const char *ok = "\n# comment = not a key\n  log-level\t=  notice  # trailing\r\npersist-apm=no\n\n";

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(rpmemd_config_parse("r.conf", ok, strlen(ok), &c, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(c.log_level, RPMEMD_LOG_NOTICE);
	/* a key the command line fixed is left alone (bit 5: log-level) */
	ck_assert_int_eq(rpmemd_config_parse("r.conf", "log-level = debug", 17, &c, 1u << 5, err, sizeof(err)), 0);
	ck_assert_int_eq(c.log_level, RPMEMD_LOG_NOTICE);
	conf_fails("log-level = notice\npoolset-dir /srv\n", "r.conf:2:1: expected 'key = value'");
	conf_fails("  = x\n", "r.conf:1:3: no key before '='");
	conf_fails("\n\nlog-level =   # nothing\n", "r.conf:3:12: no value for 'log-level'");
	conf_fails("colour = blue\n", "r.conf:1:1: unknown key 'colour' (log-file, poolset-dir, persist-apm, "
				      "persist-general, use-syslog, log-level, max-lanes, port-base, timeout, pmem)");
	conf_fails("use-syslog = maybe\n", "r.conf:1:14: bad value 'maybe' for use-syslog (yes or no)");
	conf_fails("max-lanes = 0\n", "r.conf:1:13: bad value '0' for max-lanes (a number from 1 to 64)");
	conf_fails("nthreads = 4\n", "r.conf:1:1: unknown key 'nthreads' (log-file, poolset-dir, persist-apm, "
				     "persist-general, use-syslog, log-level, max-lanes, port-base, timeout, pmem)");
	conf_fails("log-level = err\x01\n", "r.conf:1:16: control character");
	ck_assert_int_eq(rpmemd_config_parse("r.conf", "a\0b", 3, &c, 0, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "r.conf:1:1: NUL byte in the file");
	char *big = malloc(5000);

	memset(big, 'x', 4999);
	big[4999] = '\0';
	conf_fails(big, "r.conf:1:4097: line longer than 4096 bytes");
	free(big);
}
END_TEST

START_TEST(test_config_file_read_errors)
{
	struct rpmemd_config c;
	char err[256] = "", p[128];

	snprintf(p, sizeof(p), "%s/.rpmemd.conf", home);
	put(p, "persist-apm = yes\nlog-level = loud\n");
	ck_assert_int_eq(rd(&c, err, sizeof(err), NULL), -EINVAL);
	ck_assert_msg(strstr(err, "/.rpmemd.conf:2:13: bad value 'loud' for log-level"), "%s", err);
	unlink(p);
	ck_assert_int_eq(mkdir(p, 0700), 0); /* not a file */
	ck_assert_int_eq(rd(&c, err, sizeof(err), NULL), -EINVAL);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	rmdir(p);
}
END_TEST

Suite *suite_test_rpmemd_config(void)
{
	Suite *s = suite_create("rpmemd_config");
	TCase *tc = tcase_create("config");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_defaults_are_rpmemd1s);
	tcase_add_test(tc, test_search_order_and_command_line_first);
	tcase_add_test(tc, test_command_line_options);
	tcase_add_test(tc, test_config_errors_name_file_line_column);
	tcase_add_test(tc, test_config_file_read_errors);
	suite_add_tcase(s, tc);
	return s;
}
