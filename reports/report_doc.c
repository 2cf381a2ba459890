/* reports/report_doc.c: see report_doc.h. */
#include "reports/report_doc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/inputs.h"

json_t *report_doc_load(const char *path, ws_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ws_fail(err, "cannot open: %s", strerror(errno));
        return NULL;
    }
    ws_inputs_add(path); /* no output of this run may replace it (util/inputs.h) */
    json_error_t jerr;
    json_t *doc = json_loadf(f, 0, &jerr);
    fclose(f);
    if (!doc) {
        ws_fail(err, "not JSON: line %d column %d: %s", jerr.line, jerr.column, jerr.text);
        return NULL;
    }
    if (report_doc_check(doc, err) != 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

int report_doc_check(const json_t *doc, ws_error *err)
{
    const char *schema = report_str(doc, "schema");
    if (!schema || strcmp(schema, REPORT_SCHEMA) != 0)
        return ws_fail(err, "not a warpscope report (\"schema\" is not \"%s\")", REPORT_SCHEMA);
    json_t *version = report_at(doc, "version");
    if (!json_is_integer(version))
        return ws_fail(err, "no report \"version\"");
    json_int_t got = json_integer_value(version);
    if (got < REPORT_VERSION_OLDEST_READ || got > REPORT_VERSION)
        return ws_fail(err, "report version %lld is not supported (this warpscope reads versions "
                       "%d to %d%s)", (long long)got, REPORT_VERSION_OLDEST_READ, REPORT_VERSION,
                       got < REPORT_VERSION ? "; run analyze again to write it anew" : "");
    if (!json_is_object(report_at(doc, "summary")))
        return ws_fail(err, "no \"summary\" object");
    if (!json_is_array(report_at(doc, "kernels")))
        return ws_fail(err, "no \"kernels\" array");
    return 0;
}

json_t *report_at(const json_t *doc, const char *path)
{
    json_t *v = (json_t *)doc;
    char key[64];
    for (const char *p = path; v && *p;) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        p += n + (p[n] == '.');
        if (json_is_object(v)) {
            v = json_object_get(v, key);
        } else if (json_is_array(v)) {
            char *end;
            unsigned long i = strtoul(key, &end, 10);
            v = *key && !*end ? json_array_get(v, i) : NULL;
        } else {
            v = NULL;
        }
    }
    return v;
}

double report_num(const json_t *doc, const char *path)
{
    json_t *v = report_at(doc, path);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

double report_count(const json_t *doc, const char *path)
{
    double v = report_num(doc, path);
    return isnan(v) ? 0 : v;
}

const char *report_str(const json_t *doc, const char *path)
{
    return json_string_value(report_at(doc, path));
}

/* A sparse histogram (version 3): [[bucket, count], ...]; its buckets up
 * to the last present, the others 0.  An empty array reads as no buckets
 * either way. */
static size_t sparse_nums(const json_t *a, double *out, size_t max)
{
    size_t n = 0, i;
    json_t *pair;
    json_array_foreach(a, i, pair) {
        json_t *at = json_array_get(pair, 0);
        if (json_array_size(pair) != 2 || !json_is_integer(at) || json_integer_value(at) < 0 ||
            (uint64_t)json_integer_value(at) >= max)
            continue;
        size_t bucket = (size_t)json_integer_value(at);
        for (; n <= bucket; n++)
            out[n] = 0;
        json_t *v = json_array_get(pair, 1);
        out[bucket] = json_is_number(v) ? json_number_value(v) : NAN;
    }
    return n;
}

size_t report_nums(const json_t *doc, const char *path, double *out, size_t max)
{
    json_t *a = report_at(doc, path);
    if (json_is_array(json_array_get(a, 0)))
        return sparse_nums(a, out, max);
    size_t n = json_is_array(a) ? json_array_size(a) : 0;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        out[i] = json_is_number(v) ? json_number_value(v) : NAN;
    }
    return n;
}
