/*
 * Unit test of adat_pin_providers (agent_dat_lib.c): the uDAPL providers the
 * agent's dat.conf names stay mapped after libdat2's dlclose of them, as at
 * its last dat_ia_close, so that a provider thread still running does not
 * execute an unmapped page (dat/029's agent died of SIGSEGV at its end).
 */
#include "harness/api/dat/agent_dat_int.h"

#include <check.h>
#include <dlfcn.h>

START_TEST(test_providers_stay_mapped_after_libdat_closes_them)
{
	void *dat = dlopen("libdat2.so.2", RTLD_NOW | RTLD_GLOBAL); /* the providers resolve its symbols */
	void *ofa;

	ck_assert_ptr_nonnull(dat);
	ofa = dlopen("libdaplofa.so.2", RTLD_NOW); /* as libdat2 loads a provider at dat_ia_open */
	ck_assert_ptr_nonnull(ofa);
	ck_assert_int_eq(adat_pin_providers(), 2);
	ck_assert_int_eq(dlclose(ofa), 0); /* as libdat2 unloads it at the last dat_ia_close */
	ck_assert_ptr_nonnull(dlopen("libdaplofa.so.2", RTLD_NOW | RTLD_NOLOAD));
	ck_assert_ptr_nonnull(dlopen("libdaploscm.so.2", RTLD_NOW | RTLD_NOLOAD));
}
END_TEST

Suite *suite_test_dat_pin(void)
{
	Suite *s = suite_create("test_dat_pin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_providers_stay_mapped_after_libdat_closes_them);
	suite_add_tcase(s, tc);
	return s;
}
