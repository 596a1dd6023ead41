/*
 * Unit tests of the MRAPI directory's keyring and handshake MACs
 * (lib/mrapi/dir_auth.c): what a good keyring gives, every refusal with its
 * file, line and column, and the MAC binding role, domain, node and nonces.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/dir.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char path_[64];

/* The keyring file with text and mode; returns dir_keys_load's result, err filled. */
static int load(const char *text, mode_t mode, struct dir_keys *k, char *err, size_t errlen)
{
	int fd;

	snprintf(path_, sizeof(path_), "/tmp/mrapi-keys-test-%d", (int)getpid());
	unlink(path_);
	fd = open(path_, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
	err[0] = '\0';
	return dir_keys_load(path_, k, err, errlen);
}

static void teardown(void)
{
	unlink(path_);
}

START_TEST(test_keyring_good)
{
	struct dir_keys k;
	char err[256];

	ck_assert_int_eq(load("# the domains\n\n1 0123456789abcdef\r\n  42   sixteen-bytes-ok!\n", 0600, &k, err,
			      sizeof(err)), 0);
	ck_assert_int_eq(k.n, 2);
	ck_assert_ptr_nonnull(dir_key_of(&k, 1));
	ck_assert_ptr_nonnull(dir_key_of(&k, 42));
	ck_assert_ptr_null(dir_key_of(&k, 2));
	dir_keys_free(&k);
	ck_assert_int_eq(k.n, 0);
}
END_TEST

START_TEST(test_keyring_refusals_say_where)
{
	static const struct { const char *text; const char *want; } bad[] = {
		{ "1 0123456789abcdef\nx 0123456789abcdef\n", ":2:1: 'x' is not a domain number" },
		{ "1 short\n", ":1:3: the secret must be 16 to 128 bytes (it has 5)" },
		{ "1 0123456789abcdef extra\n", ":1:1: want 'DOMAIN SECRET'" },
		{ "1 0123456789abcdef\n1 fedcba9876543210\n", ":2:1: domain 1 has a secret already" },
		{ "# nothing\n", ": the keyring has no 'DOMAIN SECRET' line" },
		{ "4294967296 0123456789abcdef\n", ":1:1: '4294967296' is not a domain number" },
	};
	struct dir_keys k;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(load(bad[i].text, 0600, &k, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, bad[i].want) && strncmp(err, path_, strlen(path_)) == 0, "case %zu: %s", i,
			      err);
	}
	ck_assert_int_eq(load("1 0123456789abcdef\n", 0644, &k, err, sizeof(err)), -EPERM);
	ck_assert_ptr_nonnull(strstr(err, "chmod 600"));
	ck_assert_int_eq(dir_keys_load("/nonexistent/keys", &k, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/keys"));
}
END_TEST

START_TEST(test_mac_binds_everything)
{
	struct dir_keys k, other;
	char err[256], m[DIR_HEX], m2[DIR_HEX], n1[DIR_HEX], n2[DIR_HEX];

	ck_assert_int_eq(load("1 0123456789abcdef\n2 0123456789abcdeX\n", 0600, &k, err, sizeof(err)), 0);
	ck_assert_int_eq(load("1 0123456789abcdeX\n", 0600, &other, err, sizeof(err)), 0);
	ck_assert_int_eq(dir_nonce(n1), 0);
	ck_assert_int_eq(dir_nonce(n2), 0);
	ck_assert_uint_eq(strlen(n1), DIR_HEX - 1);
	ck_assert_str_ne(n1, n2);
	ck_assert_int_eq(dir_mac(dir_key_of(&k, 1), "node", 1, 3, n1, n2, m), 0);
	ck_assert_int_eq(dir_mac(dir_key_of(&k, 1), "node", 1, 3, n1, n2, m2), 0);
	ck_assert(dir_mac_same(m, m2)); /* the keyed context is reused, not consumed */
	ck_assert_int_eq(dir_mac(dir_key_of(&k, 1), "dir", 1, 3, n1, n2, m2), 0);
	ck_assert(!dir_mac_same(m, m2));
	ck_assert_int_eq(dir_mac(dir_key_of(&k, 1), "node", 1, 4, n1, n2, m2), 0);
	ck_assert(!dir_mac_same(m, m2));
	ck_assert_int_eq(dir_mac(dir_key_of(&k, 1), "node", 1, 3, n2, n1, m2), 0);
	ck_assert(!dir_mac_same(m, m2));
	ck_assert_int_eq(dir_mac(dir_key_of(&other, 1), "node", 1, 3, n1, n2, m2), 0);
	ck_assert(!dir_mac_same(m, m2));
	ck_assert(!dir_mac_same(m, "00"));
	/* HMAC-SHA256("0123456789abcdef", "node 1 3 a b") (RFC 2104; openssl dgst -sha256 -hmac) */
	ck_assert_int_eq(dir_mac(dir_key_of(&k, 1), "node", 1, 3, "a", "b", m), 0);
	ck_assert_str_eq(m, "4dfa93f76bf602802f926e5ba2fd8d887fdfa02e0ca2ce7a4b375d2d47e1d8c5");
	dir_keys_free(&k);
	dir_keys_free(&other);
}
END_TEST

Suite *suite_test_mrapi_dir_keys(void)
{
	Suite *s = suite_create("mrapi_dir_keys");
	TCase *tc = tcase_create("keys");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_keyring_good);
	tcase_add_test(tc, test_keyring_refusals_say_where);
	tcase_add_test(tc, test_mac_binds_everything);
	suite_add_tcase(s, tc);
	return s;
}
