/* formats/kernel_filter.c: see kernel_filter.h. */
#include "formats/kernel_filter.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"

#define REGEX_PREFIX "regex:"

int kernel_filter_active(const kernel_filter *f)
{
    return f && (f->name || f->launch_skip || f->launch_count);
}

static int is_regex(const kernel_filter *f)
{
    return strncmp(f->name, REGEX_PREFIX, strlen(REGEX_PREFIX)) == 0;
}

static int compile(const kernel_filter *f, regex_t *re, ws_error *err)
{
    int rc = regcomp(re, f->name + strlen(REGEX_PREFIX), REG_EXTENDED | REG_NOSUB);
    if (rc == 0)
        return 0;
    char why[200];
    regerror(rc, re, why, sizeof why);
    regfree(re);
    return ws_fail(err, "-k %s: not a regular expression: %s", f->name, why);
}

int kernel_filter_check(const kernel_filter *f, ws_error *err)
{
    if (!f || !f->name || !is_regex(f))
        return 0;
    regex_t re;
    if (compile(f, &re, err) != 0)
        return -1;
    regfree(&re);
    return 0;
}

/* The function name alone: "ns::Fan1<float>" -> "Fan1" (what ncu's
 * --kernel-name-base function compares). */
static void base_name(const char *qualified, char *dst, size_t cap)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", qualified);
    char *angle = strchr(tmp, '<');
    if (angle)
        *angle = '\0';
    char *colons = strrchr(tmp, ':');
    snprintf(dst, cap, "%s", colons ? colons + 1 : tmp);
}

static int name_matches(const kernel_filter *f, const regex_t *re, const char *mangled)
{
    if (!mangled)
        mangled = "";
    demangled d = {0};
    int readable = demangle(mangled, &d) == 0;
    int match;
    if (re) {
        match = regexec(re, mangled, 0, NULL, 0) == 0 ||
                (readable && (regexec(re, d.name, 0, NULL, 0) == 0 ||
                              regexec(re, d.full, 0, NULL, 0) == 0));
    } else {
        char base[512];
        base_name(readable ? d.name : mangled, base, sizeof base);
        match = strcmp(f->name, mangled) == 0 || strcmp(f->name, base) == 0 ||
                (readable && (strcmp(f->name, d.name) == 0 || strcmp(f->name, d.full) == 0));
    }
    if (readable)
        demangled_free(&d);
    return match;
}

void kernel_filter_describe(const kernel_filter *f, char *dst, size_t cap)
{
    size_t used = 0;
    dst[0] = '\0';
#define ADD(...)                                                                   \
    do {                                                                           \
        if (used < cap)                                                            \
            used += (size_t)snprintf(dst + used, cap - used, __VA_ARGS__);         \
    } while (0)
    if (f->name)
        ADD("-k %s", f->name);
    if (f->launch_skip)
        ADD("%s--launch-skip %llu", used ? " " : "", (unsigned long long)f->launch_skip);
    if (f->launch_count)
        ADD("%s--launch-count %llu", used ? " " : "", (unsigned long long)f->launch_count);
#undef ADD
}

int kernel_filter_apply(const kernel_filter *f, wst_reader *r, ws_error *err)
{
    if (!kernel_filter_active(f))
        return 0;
    regex_t re;
    int regex = f->name && is_regex(f);
    if (regex && compile(f, &re, err) != 0)
        return -1;
    const wst_trace *t = wst_reader_trace(r);
    uint8_t *keep = calloc(t->kernel_count + 1, 1);
    if (!keep) {
        if (regex)
            regfree(&re);
        return ws_fail(err, "out of memory");
    }
    uint64_t matched = 0, kept = 0;
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        if (f->name && !name_matches(f, regex ? &re : NULL, t->kernels[k].name))
            continue;
        if (matched++ < f->launch_skip)
            continue;
        if (f->launch_count && kept >= f->launch_count)
            break;
        keep[k] = 1;
        kept++;
    }
    if (regex)
        regfree(&re);
    int rc = 0;
    if (kept == 0) {
        char what[600];
        kernel_filter_describe(f, what, sizeof what);
        if (f->name)
            rc = ws_fail(err, "no kernel launch matches %s (%llu of the trace's %u launches "
                         "match the name)", what, (unsigned long long)matched, t->kernel_count);
        else
            rc = ws_fail(err, "no kernel launch matches %s (the trace has %u launches)", what,
                         t->kernel_count);
    } else if (kept < t->kernel_count) {
        char what[600];
        kernel_filter_describe(f, what, sizeof what);
        rc = wst_reader_keep_kernels(r, keep, what, err);
    }
    free(keep);
    return rc;
}
