/* tests/test_json_print.c: util/json_print.h prints what json_dumps prints
 * with JSON_COMPACT | JSON_REAL_PRECISION(p), byte for byte: a worked
 * document, then the awkward values (escapes, extreme integers, reals
 * that print as integers or with exponents), then random documents. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_print.h"

static void assert_same_as_jansson(const json_t *doc, int precision)
{
    char *want = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(precision));
    char *got = json_print_compact(doc, precision);
    cr_assert_not_null(want);
    cr_assert_not_null(got);
    cr_assert_str_eq(got, want);
    free(want);
    free(got);
}

Test(json_print, worked_document)
{
    json_t *doc = json_pack("{s:i,s:[f,b,n],s:{},s:[],s:s}", "requests", 2352, "list", 0.5, 1,
                            "empty", "none", "name", "lru");
    char *got = json_print_compact(doc, 10);
    cr_assert_str_eq(got, "{\"requests\":2352,\"list\":[0.5,true,null],\"empty\":{},"
                          "\"none\":[],\"name\":\"lru\"}");
    free(got);
    json_decref(doc);
}

Test(json_print, awkward_values_print_as_jansson_prints_them)
{
    json_t *doc = json_object();
    char controls[40];
    for (int c = 1; c < 32; c++)
        controls[c - 1] = (char)c;
    strcpy(controls + 31, "\"\\/é");
    json_object_set_new(doc, "controls", json_string(controls));
    json_object_set_new(doc, "key \"with\" \\ escapes\n", json_true());
    json_object_setn_new(doc, "nul\0inside", 10, json_false());
    static const json_int_t ints[] = {0, 1, -1, 9, 10, -10, 1234567890123LL, INT64_MAX, INT64_MIN};
    json_t *ia = json_array();
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        json_array_append_new(ia, json_integer(ints[i]));
    json_object_set_new(doc, "integers", ia);
    static const double reals[] = {0.0, -0.0, 1.0, -2.0, 0.1, 1.0 / 3, 2.0 / 3, 123456789012.0,
                                   1e10, 1e9, 1e-5, 1e-300, 1e300, -1.5e-7, 0.5166256158,
                                   1152921504606846976.0, 9.999999999e99, 5e-324};
    json_t *ra = json_array();
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        json_array_append_new(ra, json_real(reals[i]));
    json_object_set_new(doc, "reals", ra);
    for (int precision = 1; precision <= 17; precision++)
        assert_same_as_jansson(doc, precision);
    json_decref(doc);
}

static uint64_t next(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return *seed >> 11;
}

static json_t *random_value(uint64_t *seed, int depth)
{
    switch (next(seed) % (depth > 3 ? 5 : 7)) {
    case 0: return json_integer((json_int_t)next(seed) - (json_int_t)(UINT64_C(1) << 52));
    case 1: return json_real((double)(int64_t)next(seed) / (double)(next(seed) % 100000 + 1));
    case 2: return json_string(next(seed) % 2 ? "plain" : "tab\there \"q\"");
    case 3: return next(seed) % 2 ? json_true() : json_null();
    case 4: return json_real(ldexp((double)(next(seed) % 1000), (int)(next(seed) % 200) - 100));
    case 5: {
        json_t *a = json_array();
        for (uint64_t n = next(seed) % 5; n > 0; n--)
            json_array_append_new(a, random_value(seed, depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (uint64_t n = next(seed) % 5; n > 0; n--) {
            char key[16];
            snprintf(key, sizeof key, "k%u", (unsigned)(next(seed) % 50));
            json_object_set_new(o, key, random_value(seed, depth + 1));
        }
        return o;
    }
    }
}

Test(json_print, random_documents_print_as_jansson_prints_them)
{
    uint64_t seed = 2026;
    for (int i = 0; i < 300; i++) {
        json_t *doc = json_object();
        json_object_set_new(doc, "v", random_value(&seed, 0));
        assert_same_as_jansson(doc, i % 2 ? 10 : 17);
        json_decref(doc);
    }
}

Test(json_print, refuses_what_json_dumps_refuses)
{
    json_t *doc = json_object();
    cr_assert_null(json_print_compact(doc, 0));
    cr_assert_null(json_print_compact(doc, 32));
    cr_assert_null(json_print_compact(NULL, 10));
    json_decref(doc);
}
