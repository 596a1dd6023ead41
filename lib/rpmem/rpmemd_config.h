/*
 * rpmemd_config.h — the target daemon's configuration as PMDK 1.12.1's
 * rpmemd reads it (rpmemd(1); src/tools/rpmemd/rpmemd_config.c): defaults,
 * then /etc/rpmemd/rpmemd.conf and $HOME/.rpmemd.conf (or only the file of
 * -c/--config), with the command line's options over both.
 */
#ifndef RPMEMD_CONFIG_H
#define RPMEMD_CONFIG_H 1

#include <limits.h>
#include <stddef.h>

#define RPMEMD_GLOBAL_CONFIG "/etc/rpmemd/rpmemd.conf"
#define RPMEMD_USER_CONFIG ".rpmemd.conf" /* in $HOME */
#define RPMEMD_LANES_MAX 64
#define RPMEMD_PORT_TRIES 100

/* rpmemd(1)'s log levels, in syslog's order. */
enum rpmemd_log_level { RPMEMD_LOG_ERR, RPMEMD_LOG_WARN, RPMEMD_LOG_NOTICE, RPMEMD_LOG_INFO, RPMEMD_LOG_DEBUG };

/* What the command line asks for. */
enum rpmemd_run { RPMEMD_SERVE, RPMEMD_REMOVE, RPMEMD_HELP, RPMEMD_VERSION };

struct rpmemd_config {
	enum rpmemd_run run;
	/* PMDK's options (config file keys and --long options) */
	char poolset_dir[PATH_MAX]; /* pool set names are relative to it; "$HOME" replaced */
	char log_file[PATH_MAX];    /* setting it turns use_syslog off, as in PMDK */
	int persist_apm, persist_general, use_syslog;
	enum rpmemd_log_level log_level;
	unsigned nthreads;                /* -t: GPSPM's processing threads (this daemon has none) */
	const char *rm_poolset;           /* -r POOLSET */
	int force, pool_set;              /* -f, -s: with -r */
	/* this daemon's own (also keys of the config file) */
	unsigned max_lanes, port_base;
	int timeout_ms, pmem, verbose;
};

/*
 * Read the configuration: defaults (rpmemd(1) DEFAULT CONFIGURATION:
 * poolset-dir $HOME, log-file /var/log/rpmemd.log, persist-apm no,
 * persist-general yes, use-syslog yes, log-level err), then the config files
 * — the one of -c (it must exist) or else global_conf (normally
 * RPMEMD_GLOBAL_CONFIG) and $HOME/.rpmemd.conf, each optional — where a key
 * the command line set is left as the command line set it. Returns 0, or
 * -EINVAL with err ("FILE:LINE:COL: what" for a config file; the option
 * otherwise). argv is kept (c->rm_poolset points into it).
 */
int rpmemd_config_read(struct rpmemd_config *c, int argc, char **argv, const char *global_conf, char *err,
		       size_t errlen);

/*
 * Apply one config file's text (named fname in errors) to c, except the keys
 * whose bit is set in fixed (1 << key index: those the command line set).
 * "key = value" a line, '#' starts a comment, blank lines are skipped; keys
 * are the long option names of rpmemd(1) CONFIGURATION FILES and this
 * daemon's own (max-lanes, port-base, timeout, pmem). Returns 0 or -EINVAL
 * with "fname:line:col: what" in err.
 */
int rpmemd_config_parse(const char *fname, const char *text, size_t len, struct rpmemd_config *c, unsigned fixed,
			char *err, size_t errlen);

/* The level's name (err, warn, notice, info, debug). */
const char *rpmemd_log_level_str(enum rpmemd_log_level l);

/* usage(1) text of the daemon. */
extern const char rpmemd_usage[];

#endif
