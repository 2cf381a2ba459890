/* tests/test_json_write.c: util/json_write.h writes what json_dumps prints
 * with JSON_COMPACT | JSON_REAL_PRECISION(p), byte for byte: a worked
 * document, random documents made twice from one random stream (once as
 * writer calls, once as a jansson tree), and util/json_print.h's deferred
 * values, which print where their placeholders stand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_print.h"
#include "util/json_write.h"

Test(json_write, worked_document)
{
    json_writer w;
    json_writer_init(&w, 10);
    json_write_object(&w);
    json_write_key(&w, "requests");
    json_write_integer(&w, 2352);
    json_write_key(&w, "list");
    json_write_array(&w);
    json_write_real(&w, 0.5);
    json_write_bool(&w, 1);
    json_write_null(&w);
    json_write_real(&w, 1.0 / 3);
    json_write_real(&w, 2.0);
    json_write_real(&w, 1e-5);
    json_write_array_end(&w);
    json_write_key(&w, "empty");
    json_write_object(&w);
    json_write_object_end(&w);
    json_write_key(&w, "none");
    json_write_array(&w);
    json_write_array_end(&w);
    json_write_key(&w, "name \"q\"");
    json_write_string(&w, "lru\t1");
    json_write_object_end(&w);
    char *got = json_writer_finish(&w);
    cr_assert_str_eq(got, "{\"requests\":2352,\"list\":[0.5,true,null,0.3333333333,2.0,1e-5],"
                          "\"empty\":{},\"none\":[],\"name \\\"q\\\"\":\"lru\\t1\"}");
    free(got);
}

static uint64_t next(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return *seed >> 11;
}

/* One random value, as a tree (returned) and as writer calls on w. */
static json_t *random_value(uint64_t *seed, int depth, json_writer *w)
{
    switch (next(seed) % (depth > 3 ? 6 : 8)) {
    case 0: {
        /* Every magnitude, both signs, and the extremes. */
        uint64_t bits = next(seed) << 11 | next(seed) % 2048;
        json_int_t v = (json_int_t)(bits >> (1 + next(seed) % 63));
        switch (next(seed) % 8) {
        case 0: v = INT64_MIN; break;
        case 1: v = INT64_MAX; break;
        case 2: case 3: case 4: v = -v; break;
        }
        json_write_integer(w, v);
        return json_integer(v);
    }
    case 1: {
        double v = (double)(int64_t)next(seed) / (double)(next(seed) % 100000 + 1);
        json_write_real(w, v);
        return json_real(v);
    }
    case 2: {
        static const char *const strings[] = {"plain", "tab\there \"q\"", "", "back\\slash\x01"};
        const char *s = strings[next(seed) % 4];
        json_write_string(w, s);
        return json_string(s);
    }
    case 3:
        if (next(seed) % 2) {
            json_write_bool(w, 1);
            return json_true();
        }
        json_write_null(w);
        return json_null();
    case 4: {
        double v = ldexp((double)(next(seed) % 1000), (int)(next(seed) % 200) - 100);
        json_write_real(w, v);
        return json_real(v);
    }
    case 5: {
        double v = (double)(next(seed) % 2000) - 1000.0; /* integral reals print with ".0" */
        json_write_real(w, v);
        return json_real(v);
    }
    case 6: {
        json_t *a = json_array();
        json_write_array(w);
        for (uint64_t n = next(seed) % 5; n > 0; n--)
            json_array_append_new(a, random_value(seed, depth + 1, w));
        json_write_array_end(w);
        return a;
    }
    default: {
        json_t *o = json_object();
        json_write_object(w);
        /* Distinct keys: jansson would keep one member of a repeated key. */
        for (uint64_t n = next(seed) % 5, k = 0; k < n; k++) {
            char key[16];
            snprintf(key, sizeof key, "k%u", (unsigned)(k * 7 + next(seed) % 7));
            json_write_key(w, key);
            json_object_set_new(o, key, random_value(seed, depth + 1, w));
        }
        json_write_object_end(w);
        return o;
    }
    }
}

Test(json_write, random_documents_write_as_jansson_prints_them)
{
    uint64_t seed = 41;
    for (int i = 0; i < 400; i++) {
        int precision = i % 3 ? 10 : 17;
        json_writer w;
        json_writer_init(&w, precision);
        json_t *doc = random_value(&seed, 0, &w);
        char *got = json_writer_finish(&w);
        char *want = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(precision) |
                                         JSON_ENCODE_ANY);
        cr_assert_not_null(got);
        cr_assert_not_null(want);
        cr_assert_str_eq(got, want, "document %d", i);
        free(got);
        free(want);
        json_decref(doc);
    }
}

Test(json_write, fails_where_json_dumps_fails)
{
    json_writer w;
    json_writer_init(&w, 10);
    json_write_array(&w);
    json_write_real(&w, INFINITY);
    json_write_array_end(&w);
    cr_assert_null(json_writer_finish(&w));
    json_writer_init(&w, 0);
    json_write_null(&w);
    cr_assert_null(json_writer_finish(&w));
    json_writer_init(&w, 32);
    json_write_null(&w);
    cr_assert_null(json_writer_finish(&w));
}

/* A deferred value's function: {"n":N,"third":N/3,"list":[0/3,...,(N-1)/3]}
 * for the N that ctx points at. */
static void write_thirds(json_writer *w, const void *ctx)
{
    const int *n = ctx;
    json_write_object(w);
    json_write_key(w, "n");
    json_write_integer(w, *n);
    json_write_key(w, "third");
    json_write_real(w, *n / 3.0);
    json_write_key(w, "list");
    json_write_array(w);
    for (int i = 0; i < *n; i++)
        json_write_real(w, i / 3.0);
    json_write_array_end(w);
    json_write_object_end(w);
}

Test(json_write, deferred_values_print_where_their_placeholders_stand)
{
    static const int sizes[] = {1, 4, 7};
    json_deferred_set *later = json_deferred_new();
    json_t *printed = json_object(), *read = json_object();
    json_t *printed_list = json_array(), *read_list = json_array();
    json_object_set_new(printed, "head", json_string("h"));
    json_object_set_new(read, "head", json_string("h"));
    /* An empty object that is no placeholder stays empty. */
    json_object_set_new(printed, "empty", json_object());
    json_object_set_new(read, "empty", json_object());
    for (int i = 0; i < 3; i++) {
        json_array_append_new(printed_list, json_deferred_value(later, write_thirds, &sizes[i]));
        json_array_append_new(read_list, json_deferred_value(NULL, write_thirds, &sizes[i]));
    }
    json_object_set_new(printed, "list", printed_list);
    json_object_set_new(read, "list", read_list);
    json_object_set_new(printed, "one", json_deferred_value(later, write_thirds, &sizes[1]));
    json_object_set_new(read, "one", json_deferred_value(NULL, write_thirds, &sizes[1]));
    json_object_set_new(printed, "tail", json_integer(-1));
    json_object_set_new(read, "tail", json_integer(-1));

    /* The tree read back holds every digit: 4 / 3.0 exactly. */
    cr_assert_eq(json_real_value(json_object_get(json_object_get(read, "one"), "third")),
                 4 / 3.0);
    for (int precision = 10; precision <= 17; precision += 7) {
        char *got = json_print_compact_deferred(printed, precision, later);
        char *want = json_dumps(read, JSON_COMPACT | JSON_REAL_PRECISION(precision));
        cr_assert_not_null(got);
        cr_assert_str_eq(got, want);
        free(got);
        free(want);
    }
    /* Without the set, a placeholder is an empty object. */
    char *bare = json_print_compact(json_object_get(printed, "one"), 10);
    cr_assert_str_eq(bare, "{}");
    free(bare);
    json_deferred_free(later);
    json_decref(printed);
    json_decref(read);
}
