/*
 * dir_auth.c — the directory's keyring (MRAPI_RDMA_KEYS, format in dir.h)
 * and the MACs of its mutual handshake, HMAC-SHA256 from OpenSSL's libcrypto
 * as the harness's agents use it. Every secret becomes a keyed EVP_MAC
 * context when the keyring is read; a MAC duplicates that context, so the
 * service, forked from a possibly multithreaded node, never fetches an
 * algorithm (which takes OpenSSL's global locks) after the fork.
 */
#include "lib/mrapi/dir.h"
#include "lib/common/hex.h"
#include "lib/common/secret_file.h"

#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <string.h>

#define KEYRING_MAX 8192 /* bytes of a keyring file */

/* A keyed HMAC-SHA256 context for secret, or NULL. */
static EVP_MAC_CTX *keyed(const unsigned char *secret, size_t len)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	char digest[] = "SHA256";
	OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_END };

	EVP_MAC_free(mac); /* the context holds its own reference */
	if (ctx && !EVP_MAC_init(ctx, secret, len, p)) {
		EVP_MAC_CTX_free(ctx);
		ctx = NULL;
	}
	return ctx;
}

void dir_keys_free(struct dir_keys *keys)
{
	for (int i = 0; i < keys->n; i++)
		EVP_MAC_CTX_free(keys->k[i].mac);
	keys->n = 0;
}

const struct dir_key *dir_key_of(const struct dir_keys *keys, uint32_t domain)
{
	for (int i = 0; i < keys->n; i++)
		if (keys->k[i].domain == domain)
			return &keys->k[i];
	return NULL;
}

/* One line "DOMAIN SECRET" (NUL-terminated, no '\n') into keys; lno for the messages. */
static int key_line(const char *path, int lno, char *line, struct dir_keys *keys, char *err, size_t errlen)
{
	char *f[3], *start = line;
	uint64_t dom;
	int n = wl_split(line, f, 3);
	size_t len;

	if (n == 0 || f[0][0] == '#')
		return 0;
	if (n != 2) {
		snprintf(err, errlen, "%s:%d:%d: want 'DOMAIN SECRET'", path, lno, (int)(f[0] - start) + 1);
		return -EINVAL;
	}
	if (wl_u64_parse(f[0], &dom) || dom > UINT32_MAX) {
		snprintf(err, errlen, "%s:%d:%d: '%.20s' is not a domain number", path, lno, (int)(f[0] - start) + 1,
			 f[0]);
		return -EINVAL;
	}
	len = strlen(f[1]);
	for (size_t i = 0; i < len; i++)
		if (f[1][i] < '!' || f[1][i] > '~') {
			snprintf(err, errlen, "%s:%d:%d: the secret has a byte that is not printable", path, lno,
				 (int)(f[1] - start + (long)i) + 1);
			return -EINVAL;
		}
	if (len < DIR_KEY_MIN || len > DIR_KEY_MAX) {
		snprintf(err, errlen, "%s:%d:%d: the secret must be %d to %d bytes (it has %zu)", path, lno,
			 (int)(f[1] - start) + 1, DIR_KEY_MIN, DIR_KEY_MAX, len);
		return -EINVAL;
	}
	if (dir_key_of(keys, (uint32_t)dom)) {
		snprintf(err, errlen, "%s:%d:1: domain %u has a secret already", path, lno, (unsigned)dom);
		return -EINVAL;
	}
	if (keys->n == DIR_MAX_DOMAINS) {
		snprintf(err, errlen, "%s:%d:1: more than %d domains", path, lno, DIR_MAX_DOMAINS);
		return -EINVAL;
	}
	if (!(keys->k[keys->n].mac = keyed((const unsigned char *)f[1], len))) {
		snprintf(err, errlen, "%s:%d: HMAC-SHA256 is not available", path, lno);
		return -EIO;
	}
	keys->k[keys->n++].domain = (uint32_t)dom;
	return 0;
}

int dir_keys_load(const char *path, struct dir_keys *keys, char *err, size_t errlen)
{
	char buf[KEYRING_MAX], *line = buf;
	int rc, lno = 1;
	size_t n;

	keys->n = 0;
	if ((rc = secret_file_read(path, "the keyring", buf, sizeof(buf), &n, err, errlen)))
		return rc;
	while (line && !rc) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
		rc = key_line(path, lno++, line, keys, err, errlen);
		line = nl ? nl + 1 : NULL;
	}
	if (!rc && keys->n == 0) {
		snprintf(err, errlen, "%s: the keyring has no 'DOMAIN SECRET' line", path);
		rc = -EINVAL;
	}
	OPENSSL_cleanse(buf, sizeof(buf));
	if (rc)
		dir_keys_free(keys);
	return rc;
}

int dir_nonce(char out[DIR_HEX])
{
	return hex_random((DIR_HEX - 1) / 2, out);
}

int dir_mac(const struct dir_key *k, const char *role, uint32_t domain, uint32_t node, const char *n1,
	    const char *n2, char out[DIR_HEX])
{
	struct wline w;
	unsigned char md[EVP_MAX_MD_SIZE];
	size_t mdlen = 0;
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(k->mac);
	int ok;

	wl_init(&w);
	wl_str(&w, role);
	wl_u64(&w, domain);
	wl_u64(&w, node);
	wl_str(&w, n1);
	wl_str(&w, n2);
	ok = ctx && !w.over && EVP_MAC_update(ctx, (const unsigned char *)w.buf, w.len) &&
	     EVP_MAC_final(ctx, md, &mdlen, sizeof(md)) && mdlen * 2 < DIR_HEX;
	EVP_MAC_CTX_free(ctx);
	if (!ok)
		return -EIO;
	hex_encode(md, mdlen, out);
	return 0;
}

int dir_mac_same(const char *a, const char *b)
{
	size_t n = strlen(a);

	return n == DIR_HEX - 1 && n == strlen(b) && CRYPTO_memcmp(a, b, n) == 0;
}
