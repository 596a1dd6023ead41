/* rpmemd_main.c — the daemon's executable, rpmemd-rpma (rpmemd.c's rpmemd_main). */
#include "lib/rpmem/rpmem_int.h"

int main(int argc, char **argv)
{
	return rpmemd_main(argc, argv);
}
