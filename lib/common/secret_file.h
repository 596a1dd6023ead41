/*
 * secret_file.h — reading a file that holds a secret: the agents' token file
 * (harness/run/remote.c) and the MRAPI directory's keyring
 * (lib/mrapi/dir_auth.c) are read through this one function, with the same
 * checks. The lowest layer (LAYERS: lib/common): libc only, no include
 * from any other folder of the checkout.
 */
#ifndef RDMACHECK_SECRET_FILE_H
#define RDMACHECK_SECRET_FILE_H

#include <stddef.h>

/*
 * Read the secret file at path into buf: its bytes and a NUL after them,
 * their count in *n. The file is opened without blocking (a FIFO or a
 * device is never waited on) and must be a regular file (a link to one is
 * followed) that neither group nor others may read or write (mode & 077 ==
 * 0, as chmod 600 leaves it); it may hold at most size - 1 bytes (size >= 1).
 * Returns 0; -errno when it cannot be opened or read (-ENOENT: missing),
 * -EINVAL when it is not a regular file, -EPERM when group or others have
 * rights on it, -EFBIG when it holds more than size - 1 bytes. On failure
 * buf holds nothing of the file (zeroed) and err says why: "PATH: WHAT ...",
 * what naming the file's role ("the keyring", "the token file"). buf is
 * the caller's to wipe after use.
 */
int secret_file_read(const char *path, const char *what, char *buf, size_t size, size_t *n, char *err,
		     size_t errlen);

#endif
