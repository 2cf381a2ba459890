/* tests/test_demangle.c: kernel names as c++filt prints them (the expected
 * strings below are c++filt's), and declined rather than wrong outside the
 * supported subset. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/demangle.h"

static const struct {
    const char *mangled, *name, *full;
} known[] = {
    {"_Z6vecAddIfEvPT_S1_S1_i", "vecAdd<float>", "void vecAdd<float>(float*, float*, float*, int)"},
    {"_Z8mult_gpuIfEvPT_S1_S1_ii", "mult_gpu<float>", "void mult_gpu<float>(float*, float*, float*, int, int)"},
    {"_Z4Fan1PfS_S_ii", "Fan1", "Fan1(float*, float*, float*, int, int)"},
    {"_Z6KernelP4NodePiPbS2_S2_S1_i", "Kernel", "Kernel(Node*, int*, bool*, bool*, bool*, int*, int)"},
    {"_Z5saxpyifPKfPf", "saxpy", "saxpy(int, float, float const*, float*)"},
    {"_Z1fI1AI1BIiEEEvv", "f<A<B<int> > >", "void f<A<B<int> > >()"},
    {"_Z1fPVKf", "f", "f(float const volatile*)"},
    {"_Z1fPrKf", "f", "f(float const restrict*)"},
    {"_Z1fILj32EEvv", "f<32u>", "void f<32u>()"},
    {"_Z1fILb1EEvv", "f<true>", "void f<true>()"},
    {"_Z1fILin5EEvv", "f<-5>", "void f<-5>()"},
    {"_Z1fIiLi3EEvPT_", "f<int, 3>", "void f<int, 3>(int*)"},
    {"_Z1fDh", "f", "f(half)"},
    {"_ZNK2ns1A1fEv", "ns::A::f", "ns::A::f() const"},
    {"_ZN12_GLOBAL__N_11fEv", "(anonymous namespace)::f", "(anonymous namespace)::f()"},
    {"_Z1fNSt3__16vectorIiEE", "f", "f(std::__1::vector<int>)"},
    {"_Z1fSt6vectorIiSaIiEE", "f", "f(std::vector<int, std::allocator<int> >)"},
    {"_ZN3cub6detail3fooIiEEvv", "cub::detail::foo<int>", "void cub::detail::foo<int>()"},
    {"_Z3fooPN2ns1AES1_S0_", "foo", "foo(ns::A*, ns::A*, ns::A)"},
    {"_Z3barRKN2ns1BIiEES3_", "bar", "bar(ns::B<int> const&, ns::B<int> const&)"},
    {"_ZN7cutlass6KernelINS_4gemm6kernel4GemmIfEEEEvNT_6ParamsE",
     "cutlass::Kernel<cutlass::gemm::kernel::Gemm<float> >",
     "void cutlass::Kernel<cutlass::gemm::kernel::Gemm<float> >(cutlass::gemm::kernel::Gemm<float>::Params)"},
};

Test(demangle, known_kernel_names_read_as_cxxfilt_prints_them)
{
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        demangled d;
        cr_assert_eq(demangle(known[i].mangled, &d), 0, "%s", known[i].mangled);
        cr_expect_str_eq(d.name, known[i].name);
        cr_expect_str_eq(d.full, known[i].full);
        demangled_free(&d);
    }
}

Test(demangle, declines_what_it_does_not_read)
{
    static const char *const declined[] = {
        "Fan1",              /* C names are left alone */
        "",
        "_Z",
        "_Z1fv.constprop.0", /* clone suffixes */
        "_Z1fPFvvE",         /* function pointers */
        "_Z1fS5_",           /* a substitution that does not exist */
        "_Z1fT_",            /* a template parameter outside a template */
        "_Z99f",             /* a length past the end */
        "_Z1fILi32",         /* unterminated */
        "_ZN1a1bIiE",
    };
    for (size_t i = 0; i < sizeof declined / sizeof *declined; i++) {
        demangled d;
        cr_expect_eq(demangle(declined[i], &d), -1, "\"%s\"", declined[i]);
        cr_expect_null(d.name);
    }
    char buf[64];
    demangle_short(NULL, buf, sizeof buf);
    cr_expect_str_eq(buf, "?");
    demangle_short("Fan1", buf, sizeof buf);
    cr_expect_str_eq(buf, "Fan1");
    demangle_short("_Z8mult_gpuIfEvPT_S1_S1_ii", buf, 9);
    cr_expect_str_eq(buf, "mult_gpu", "truncated to the buffer");
}

Test(demangle, deep_nesting_is_refused_not_overflowed)
{
    char name[4096] = "_Z1f";
    for (int i = 0; i < 1000; i++)
        strcat(name, "P");
    strcat(name, "i");
    demangled d;
    cr_expect_eq(demangle(name, &d), -1);
}

/* Where c++filt is installed, every name we accept reads as it prints it. */
Test(demangle, agrees_with_cxxfilt_where_installed)
{
    if (system("command -v c++filt >/dev/null 2>&1") != 0)
        cr_skip_test("c++filt not installed");
    char path[] = "/tmp/ws-demangle-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        fprintf(f, "%s\n", known[i].mangled);
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "c++filt < %s", path);
    FILE *p = popen(cmd, "r");
    char line[1024];
    for (size_t i = 0; i < sizeof known / sizeof *known && fgets(line, sizeof line, p); i++) {
        line[strcspn(line, "\n")] = '\0';
        cr_expect_str_eq(line, known[i].full, "c++filt disagrees on %s", known[i].mangled);
    }
    pclose(p);
    unlink(path);
}
