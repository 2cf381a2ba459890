/* tests/test_json_stream.c: a document read with one array an element at
 * a time (util/json_stream.h) is the document jansson reads whole, the
 * elements handed over in order; bad text is named by line and column. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_stream.h"

/* The text, a few bytes a read, so elements straddle reads. */
typedef struct source {
    const char *text;
    size_t at;
} source;

static ssize_t read_some(void *ctx, char *buf, size_t n, ws_error *err)
{
    (void)err;
    source *s = ctx;
    size_t left = strlen(s->text + s->at), take = left < 3 ? left : 3;
    (void)n;
    memcpy(buf, s->text + s->at, take);
    s->at += take;
    return (ssize_t)take;
}

static int collect(void *ctx, size_t index, json_t *e, ws_error *err)
{
    (void)err;
    cr_expect_eq(json_array_size(ctx), index);
    return json_array_append(ctx, e);
}

static json_t *streamed(const char *text, json_t *elements, ws_error *err)
{
    source s = {text, 0};
    static const json_stream_limits limits = {JSON_REJECT_DUPLICATES, 16};
    return json_stream_load(read_some, &s, "kernels", collect, elements, &limits, err);
}

Test(json_stream, the_array_goes_element_by_element_and_the_rest_is_the_document)
{
    static const char *const texts[] = {
        "{\"schema\":\"x\",\"kernels\":[{\"a\":[1,{\"kernels\":[2]}]},[3],\"s,]\",4,null],\"z\":{}}",
        "{\n  \"kernels\" : [\n    {\"a\": \"\\\"kernels\\\":[\"},\n    5\n  ],\n  \"b\": 1\n}\n",
        "{\"x\":{\"kernels\":[1,2]},\"kernels\":[]}",
        "{\"kernels\":[]}",
        "{\"no\":[1]}",
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        json_error_t jerr;
        json_t *whole = json_loads(texts[t], 0, &jerr), *elements = json_array();
        cr_assert_not_null(whole, "%s", jerr.text);
        ws_error err;
        json_t *doc = streamed(texts[t], elements, &err);
        cr_assert_not_null(doc, "%zu: %s", t, err.msg);
        json_t *kernels = json_object_get(whole, "kernels");
        if (kernels) {
            cr_expect(json_equal(elements, kernels), "%zu", t);
            cr_expect_eq(json_array_size(json_object_get(doc, "kernels")), 0, "%zu", t);
            json_object_set(doc, "kernels", kernels);
        }
        cr_expect(json_equal(doc, whole), "%zu", t);
        json_decref(doc);
        json_decref(whole);
        json_decref(elements);
    }
}

Test(json_stream, bad_text_is_named_by_line_and_column)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"hello", "not JSON: line 1 column "},
        {"{\"kernels\":[1,,2]}", "not JSON: line 1 column 15: ',' where an element was expected"},
        {"{\"kernels\":[1,]}", "not JSON: line 1 column 15: ']' after ','"},
        {"{\"kernels\":[{} 2]}", "not JSON: line 1 column 16: ',' or ']' expected after an element"},
        {"{\"kernels\":[{\"a\":1}", "not JSON: line 1 column 20: the text ends inside an array"},
        {"{\"kernels\":[\n {\"a\":x}]}", "not JSON: line 2 column 7: "},
        {"{\"kernels\":[\"0123456789abcdefg\"]}", "line 1: a string longer than 16 bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *elements = json_array();
        ws_error err;
        cr_expect_null(streamed(cases[i].text, elements, &err), "%s", cases[i].text);
        cr_expect(strncmp(err.msg, cases[i].error, strlen(cases[i].error)) == 0, "%s: %s",
                  cases[i].text, err.msg);
        json_decref(elements);
    }
}

/* Nested (json_stream_load_nested): each element's own "pcs" goes entry by
 * entry to the inner callback, before the element, which keeps it empty;
 * an element without one, or with "pcs" deeper down, is left whole. */
typedef struct nested_seen {
    json_t *elements, *inner; /* inner: one array of entries per element */
} nested_seen;

static int collect_outer(void *ctx, size_t index, json_t *e, ws_error *err)
{
    nested_seen *n = ctx;
    (void)err;
    cr_expect_eq(json_array_size(n->elements), index);
    json_array_append_new(n->inner, json_array()); /* the next element's entries */
    return json_array_append(n->elements, e);
}

static int collect_inner(void *ctx, size_t index, json_t *e, ws_error *err)
{
    nested_seen *n = ctx;
    (void)err;
    json_t *current = json_array_get(n->inner, json_array_size(n->inner) - 1);
    cr_expect_eq(json_array_size(current), index);
    return json_array_append(current, e);
}

Test(json_stream, nested_arrays_go_entry_by_entry_before_their_element)
{
    const char *text = "{\"a\":1,\"kernels\":[{\"n\":\"x\",\"pcs\":[1,{\"o\":\"],\"},[3]]},"
                       "{\"pcs\":[],\"n\":\"y\"},{\"n\":{\"pcs\":[9]}},7],\"b\":[2]}";
    nested_seen n = {json_array(), json_array()};
    json_array_append_new(n.inner, json_array()); /* the first element's entries */
    source s = {text, 0};
    static const json_stream_limits limits = {JSON_REJECT_DUPLICATES, 16};
    ws_error err;
    json_t *doc = json_stream_load_nested(read_some, &s, "kernels", collect_outer, &n, "pcs",
                                          collect_inner, &limits, &err);
    cr_assert_not_null(doc, "%s", err.msg);
    json_error_t jerr;
    json_t *want_elements = json_loads("[{\"n\":\"x\",\"pcs\":[]},{\"pcs\":[],\"n\":\"y\"},"
                                       "{\"n\":{\"pcs\":[9]}},7]", 0, &jerr);
    json_t *want_inner = json_loads("[[1,{\"o\":\"],\"},[3]],[],[],[],[]]", 0, &jerr);
    cr_expect(json_equal(n.elements, want_elements), "%s", json_dumps(n.elements, JSON_COMPACT));
    cr_expect(json_equal(n.inner, want_inner), "%s", json_dumps(n.inner, JSON_COMPACT));
    cr_expect_eq(json_array_size(json_object_get(doc, "kernels")), 0);
    cr_expect_eq(json_integer_value(json_array_get(json_object_get(doc, "b"), 0)), 2);
    json_decref(want_elements);
    json_decref(want_inner);
    json_decref(n.elements);
    json_decref(n.inner);
    json_decref(doc);
}
