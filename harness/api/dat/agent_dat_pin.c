/*
 * agent_dat_pin.c — the uDAPL providers kept mapped (agent_dat_int.h:
 * adat_pin_providers), in a file of its own so that its test links it alone.
 */
#include "harness/api/dat/agent_dat_int.h"

#include <dlfcn.h>

const char *const adat_providers[ADAT_PROVIDERS] = { "libdaplofa.so.2", "libdaploscm.so.2" };

int adat_pin_providers(void)
{
	int n = 0;

	for (size_t i = 0; i < ADAT_PROVIDERS; i++)
		n += dlopen(adat_providers[i], RTLD_NOW | RTLD_NODELETE) != NULL;
	return n;
}
