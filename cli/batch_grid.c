/* cli/batch_grid.c: see batch_grid.h; the format is docs/batch.md's. */
#include "cli/batch_grid.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash64.h"

static const char *const known_keys[] = {"traces", "gpus", "sets", "systems", "warp_orders",
                                         "policies", "args", NULL};

/* An optional axis left out: one value, "". */
static int absent(const char ***out, uint32_t *count, ws_error *err)
{
    if (!(*out = calloc(1, sizeof **out)))
        return ws_fail(err, "out of memory");
    (*out)[0] = "";
    *count = 1;
    return 0;
}

/* A string axis: an array of strings, at least one.  Absent: {""} when
 * optional. */
static int axis(json_t *doc, const char *key, int optional, const char ***out, uint32_t *count,
                ws_error *err)
{
    json_t *a = json_object_get(doc, key);
    if (!a) {
        if (!optional)
            return ws_fail(err, "'%s' is missing", key);
        return absent(out, count, err);
    }
    if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > 100000)
        return ws_fail(err, "'%s' must be a non-empty array of strings", key);
    *count = (uint32_t)json_array_size(a);
    if (!(*out = calloc(*count, sizeof **out)))
        return ws_fail(err, "out of memory");
    for (uint32_t i = 0; i < *count; i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_string(v))
            return ws_fail(err, "'%s'[%u] is not a string", key, i);
        (*out)[i] = json_string_value(v);
    }
    return 0;
}

/* sets: an array whose items are an array of "FIELD=VALUE" strings (one
 * override list) or one such string; kept joined by spaces. */
static int sets_axis(json_t *doc, batch_grid *g, ws_error *err)
{
    json_t *a = json_object_get(doc, "sets");
    if (!a)
        return absent(&g->sets, &g->set_count, err);
    if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > 100000)
        return ws_fail(err, "'sets' must be a non-empty array of override lists");
    g->set_count = (uint32_t)json_array_size(a);
    if (!(g->sets = calloc(g->set_count, sizeof *g->sets)))
        return ws_fail(err, "out of memory");
    for (uint32_t i = 0; i < g->set_count; i++) {
        json_t *v = json_array_get(a, i), *joined;
        if (json_is_string(v)) {
            joined = json_incref(v);
        } else if (json_is_array(v)) {
            char text[1024] = "";
            size_t used = 0, j;
            json_t *item;
            json_array_foreach(v, j, item) {
                const char *s = json_string_value(item);
                if (!s || !strchr(s, '=') || strchr(s, ' '))
                    return ws_fail(err, "'sets'[%u][%zu] is not a FIELD=VALUE string", i, j);
                int n = snprintf(text + used, sizeof text - used, "%s%s", used ? " " : "", s);
                if (n < 0 || (size_t)n >= sizeof text - used)
                    return ws_fail(err, "'sets'[%u] is too long", i);
                used += (size_t)n;
            }
            joined = json_string(text);
        } else {
            return ws_fail(err, "'sets'[%u] must be a list of FIELD=VALUE strings", i);
        }
        /* Kept alive by the document: stored back in its place. */
        json_array_set_new(a, i, joined);
        g->sets[i] = json_string_value(json_array_get(a, i));
        if (g->sets[i][0] && !strchr(g->sets[i], '='))
            return ws_fail(err, "'sets'[%u] is not a FIELD=VALUE string", i);
    }
    return 0;
}

int batch_grid_load(const char *path, batch_grid *g, ws_error *err)
{
    memset(g, 0, sizeof *g);
    json_error_t jerr;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        return ws_fail(err, "line %d: %s", jerr.line, jerr.text);
    g->json = doc;
    if (!json_is_object(doc))
        return ws_fail(err, "a grid is a JSON object (docs/batch.md)");
    const char *key;
    json_t *value;
    json_object_foreach(doc, key, value) {
        int known = 0;
        for (size_t i = 0; known_keys[i]; i++)
            known |= strcmp(key, known_keys[i]) == 0;
        if (!known)
            return ws_fail(err, "unknown key '%s' (docs/batch.md)", key);
    }
    if (axis(doc, "traces", 0, &g->traces, &g->trace_count, err) != 0 ||
        axis(doc, "policies", 0, &g->policies, &g->policy_count, err) != 0 ||
        axis(doc, "gpus", 1, &g->gpus, &g->gpu_count, err) != 0 ||
        axis(doc, "systems", 1, &g->systems, &g->system_count, err) != 0 ||
        axis(doc, "warp_orders", 1, &g->orders, &g->order_count, err) != 0 ||
        sets_axis(doc, g, err) != 0)
        return -1;
    if (json_object_get(doc, "args")) {
        if (axis(doc, "args", 0, &g->args, &g->arg_count, err) != 0)
            return -1;
        size_t used = 0;
        for (uint32_t i = 0; i < g->arg_count; i++) {
            static const char *const own[] = {"-o", "--csv", "--html", "--policies", "--gpu",
                                              "--set", "--timeline", "--threads", NULL};
            for (size_t j = 0; own[j]; j++)
                if (strcmp(g->args[i], own[j]) == 0)
                    return ws_fail(err, "'args': %s is the grid's to set, not an option of "
                                   "every run", own[j]);
            int n = snprintf(g->args_text + used, sizeof g->args_text - used, "%s%s",
                             used ? " " : "", g->args[i]);
            if (n < 0 || (size_t)n >= sizeof g->args_text - used)
                return ws_fail(err, "'args' is too long");
            used += (size_t)n;
        }
    }
    for (uint32_t i = 0; i < g->trace_count; i++)
        if (!g->traces[i][0] || g->traces[i][0] == '-')
            return ws_fail(err, "'traces'[%u] is not a file name", i);
    for (uint32_t i = 0; i < g->policy_count; i++)
        if (!g->policies[i][0] || strpbrk(g->policies[i], ",@"))
            return ws_fail(err, "'policies'[%u]: one policy (L1P or L1P/L2P), not '%s'", i,
                           g->policies[i]);
    uint64_t runs = (uint64_t)g->trace_count * g->gpu_count * g->set_count * g->system_count *
                    g->order_count * g->policy_count;
    if (runs > 10000000)
        return ws_fail(err, "%llu runs: at most 10,000,000 in one grid", (unsigned long long)runs);
    return 0;
}

void batch_grid_free(batch_grid *g)
{
    const char **axes[] = {g->traces, g->gpus, g->sets, g->systems, g->orders, g->policies, g->args};
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++)
        free((void *)axes[i]);
    json_decref(g->json);
    memset(g, 0, sizeof *g);
}

int batch_grid_entry(const batch_grid *g, uint32_t p, uint32_t y, uint32_t o, char *out, size_t size)
{
    int len = snprintf(out, size, "%s%s%s%s%s", g->policies[p], g->systems[y][0] ? "+" : "",
                       g->systems[y], g->orders[o][0] ? "@" : "", g->orders[o]);
    return len < 0 || (size_t)len >= size ? -1 : 0;
}

batch_run *batch_grid_runs(const batch_grid *g, uint32_t *count, ws_error *err)
{
    uint64_t n = (uint64_t)g->trace_count * g->gpu_count * g->set_count * g->system_count *
                 g->order_count * g->policy_count;
    batch_run *runs = calloc(n ? n : 1, sizeof *runs);
    if (!runs)
        return ws_fail(err, "out of memory"), NULL;
    uint32_t i = 0;
    for (uint32_t t = 0; t < g->trace_count; t++)
        for (uint32_t gp = 0; gp < g->gpu_count; gp++)
            for (uint32_t s = 0; s < g->set_count; s++)
                for (uint32_t y = 0; y < g->system_count; y++)
                    for (uint32_t o = 0; o < g->order_count; o++)
                        for (uint32_t p = 0; p < g->policy_count; p++, i++) {
                            batch_run *r = &runs[i];
                            *r = (batch_run){i, t, gp, s, y, o, p, "", 0};
                            if (batch_grid_entry(g, p, y, o, r->entry, sizeof r->entry) != 0) {
                                free(runs);
                                return ws_fail(err, "run %u: its entry '%s...' is longer than %zu "
                                               "characters", i, r->entry, sizeof r->entry - 1), NULL;
                            }
                            /* Its identity: every input that decides its row. */
                            char key[4096];
                            snprintf(key, sizeof key, "%s\n%s\n%s\n%s\n%s", g->traces[t], g->gpus[gp],
                                     g->sets[s], g->args_text, r->entry);
                            r->id = hash64(key, strlen(key), 0x62617463680aULL);
                        }
    *count = i;
    return runs;
}

int batch_same_replay(const batch_run *a, const batch_run *b)
{
    return a->trace == b->trace && a->gpu == b->gpu && a->set == b->set;
}
