/* analyzer/config.c: see config.h. */
#include "analyzer/config.h"

#include "analyzer/policy.h"
#include "util/env_limit.h"
#include "util/inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t cache_config_sets(const cache_config *c)
{
    uint64_t per_set = (uint64_t)c->ways * c->line_bytes * (c->slices ? c->slices : 1);
    return per_set ? c->size_bytes / per_set : 0;
}

uint64_t cache_config_lines(const cache_config *c)
{
    return c->line_bytes ? c->size_bytes / c->line_bytes : 0;
}

/* ---- JSON ---- */

typedef struct field {
    const char *key;
    uint32_t *u32;
    uint64_t *u64;
} field;

static int check_keys(const json_t *obj, const char *const *allowed, const char *what,
                      ws_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        int known = 0;
        for (int i = 0; allowed[i]; i++)
            known |= strcmp(key, allowed[i]) == 0;
        if (!known)
            return ws_fail(err, "%s: unknown field '%s'", what, key);
    }
    return 0;
}

static int read_number(const json_t *obj, const char *key, uint64_t max, uint64_t *out,
                       const char *what, ws_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return ws_fail(err, "%s: missing field '%s'", what, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
        return ws_fail(err, "%s: '%s' must be a whole number from 0 to %llu", what, key,
                       (unsigned long long)max);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int read_u32(const json_t *obj, const char *key, uint32_t *out, const char *what,
                    ws_error *err)
{
    uint64_t v = 0;
    if (read_number(obj, key, UINT32_MAX, &v, what, err) != 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int read_string(const json_t *obj, const char *key, char *out, size_t cap, int required,
                       const char *what, ws_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (!v && !required)
        return 0;
    if (!json_is_string(v) || strlen(json_string_value(v)) >= cap)
        return ws_fail(err, "%s: '%s' must be a string of at most %zu characters", what, key,
                       cap - 1);
    snprintf(out, cap, "%s", json_string_value(v));
    return 0;
}

/* The position of `value` among a field's two names, or -1 with an error
 * naming both. */
static int choice_of(const char *value, const char *const names[2], const char *what,
                     const char *key, ws_error *err)
{
    for (int i = 0; i < 2; i++)
        if (strcmp(value, names[i]) == 0)
            return i;
    return ws_fail(err, "%s: %s '%s' is not %s or %s", what, key, value, names[0], names[1]);
}

static int read_cache(const json_t *obj, cache_config *c, int is_l2, const char *what,
                      ws_error *err)
{
    static const char *const l1_keys[] = {"size", "ways", "line", "sector", "index", "write",
                                          "policy", NULL};
    static const char *const l2_keys[] = {"size", "ways", "line", "sector", "index", "policy",
                                          "slices", "write", NULL};
    if (!json_is_object(obj))
        return ws_fail(err, "%s: must be an object", what);
    if (check_keys(obj, is_l2 ? l2_keys : l1_keys, what, err) != 0)
        return -1;
    char index[16] = "linear", write[16];
    snprintf(write, sizeof write, "%s", is_l2 ? "allocate" : "evict");
    memset(c, 0, sizeof *c);
    c->slices = 1;
    if (read_number(obj, "size", UINT64_C(1) << 40, &c->size_bytes, what, err) ||
        read_u32(obj, "ways", &c->ways, what, err) || read_u32(obj, "line", &c->line_bytes, what, err) ||
        read_u32(obj, "sector", &c->sector_bytes, what, err) ||
        (is_l2 && read_u32(obj, "slices", &c->slices, what, err)) ||
        read_string(obj, "index", index, sizeof index, 0, what, err) ||
        read_string(obj, "write", write, sizeof write, 0, what, err) ||
        read_string(obj, "policy", c->policy, sizeof c->policy, 1, what, err))
        return -1;
    static const char *const indexes[] = {"linear", "fermi-hash"}; /* set_index order */
    static const char *const l1_writes[] = {"evict", "allocate"};    /* from WRITE_EVICT on */
    static const char *const l2_writes[] = {"allocate", "lazy-fetch"}; /* from WRITE_ALLOCATE on */
    int i = choice_of(index, indexes, what, "index", err);
    int w = i < 0 ? -1 : choice_of(write, is_l2 ? l2_writes : l1_writes, what, "write", err);
    if (w < 0)
        return -1;
    c->index = (set_index)i;
    c->write = (write_policy)(w + (is_l2 ? WRITE_ALLOCATE : WRITE_EVICT));
    return 0;
}

/* Each field of the optional "timing" group: its name and place. */
#define TIMING_FIELDS(t)                                                                   \
    {{"issue_per_cycle", &(t)->issue_per_cycle},                                          \
     {"l1_latency", &(t)->l1_latency},                                                    \
     {"ldst_requests_per_cycle", &(t)->ldst_requests_per_cycle},                          \
     {"l2_requests_per_cycle", &(t)->l2_requests_per_cycle},                              \
     {"dram_bytes_per_cycle", &(t)->dram_bytes_per_cycle},                                \
     {"ldst_queue", &(t)->ldst_queue}}

typedef struct timing_field {
    const char *key;
    uint32_t *value;
} timing_field;

/* The timed replay's group (docs/metrics.md §12): absent, the defaults;
 * present, each field it names replaces its default. */
static int read_timing(const json_t *obj, timing_config *t, const char *what, ws_error *err)
{
    *t = (timing_config)TIMING_DEFAULTS;
    if (!obj)
        return 0;
    char where[80];
    snprintf(where, sizeof where, "%s: timing", what);
    if (!json_is_object(obj))
        return ws_fail(err, "%s: must be an object", where);
    timing_field fields[] = TIMING_FIELDS(t);
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        size_t i = 0;
        while (i < sizeof fields / sizeof *fields && strcmp(key, fields[i].key) != 0)
            i++;
        if (i == sizeof fields / sizeof *fields)
            return ws_fail(err, "%s: unknown field '%s'", where, key);
        if (read_u32(obj, key, fields[i].value, where, err) != 0)
            return -1;
    }
    return 0;
}

json_t *timing_config_to_json(const timing_config *t)
{
    json_t *o = json_object();
    timing_field fields[] = TIMING_FIELDS((timing_config *)t);
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        json_object_set_new(o, fields[i].key, json_integer(*fields[i].value));
    return o;
}

int config_from_json(gpu_config *c, const json_t *doc, const char *what, ws_error *err)
{
    static const char *const keys[] = {"name", "note", "approx", "sms", "max_ctas_per_sm",
                                       "max_warps_per_sm", "max_threads_per_sm",
                                       "registers_per_sm", "shared_mem_per_sm",
                                       "schedulers_per_sm", "l1", "l2", "latency", "mshr",
                                       "gto_k", "timing", NULL};
    static const char *const latency_keys[] = {"l2", "dram", NULL};
    static const char *const mshr_keys[] = {"entries", "merges", NULL};
    memset(c, 0, sizeof *c);
    if (!json_is_object(doc))
        return ws_fail(err, "%s: a GPU config must be a JSON object", what);
    if (check_keys(doc, keys, what, err) != 0)
        return -1;
    const json_t *latency = json_object_get(doc, "latency"), *mshr = json_object_get(doc, "mshr");
    if (!json_is_object(latency) || !json_is_object(mshr))
        return ws_fail(err, "%s: 'latency' and 'mshr' must be objects", what);
    const json_t *approx = json_object_get(doc, "approx");
    c->approx = json_is_true(approx);
    char l1_what[64], l2_what[64];
    snprintf(l1_what, sizeof l1_what, "%s: l1", what);
    snprintf(l2_what, sizeof l2_what, "%s: l2", what);
    if (read_string(doc, "name", c->name, sizeof c->name, 1, what, err) ||
        read_string(doc, "note", c->note, sizeof c->note, 0, what, err) ||
        read_u32(doc, "sms", &c->sms, what, err) ||
        read_u32(doc, "max_ctas_per_sm", &c->max_ctas_per_sm, what, err) ||
        read_u32(doc, "max_warps_per_sm", &c->max_warps_per_sm, what, err) ||
        read_u32(doc, "max_threads_per_sm", &c->max_threads_per_sm, what, err) ||
        read_u32(doc, "registers_per_sm", &c->registers_per_sm, what, err) ||
        read_u32(doc, "shared_mem_per_sm", &c->shared_mem_per_sm, what, err) ||
        read_u32(doc, "schedulers_per_sm", &c->schedulers_per_sm, what, err) ||
        read_u32(doc, "gto_k", &c->gto_k, what, err) ||
        check_keys(latency, latency_keys, what, err) || check_keys(mshr, mshr_keys, what, err) ||
        read_u32(latency, "l2", &c->l2_latency, "latency", err) ||
        read_u32(latency, "dram", &c->dram_latency, "latency", err) ||
        read_u32(mshr, "entries", &c->mshr_entries, "mshr", err) ||
        read_u32(mshr, "merges", &c->mshr_merges, "mshr", err) ||
        read_cache(json_object_get(doc, "l1"), &c->l1, 0, l1_what, err) ||
        read_cache(json_object_get(doc, "l2"), &c->l2, 1, l2_what, err) ||
        read_timing(json_object_get(doc, "timing"), &c->timing, what, err))
        return -1;
    return config_validate(c, err);
}

static json_t *cache_to_json(const cache_config *c, int is_l2)
{
    json_t *o = json_pack("{s:I,s:i,s:i,s:i}", "size", (json_int_t)c->size_bytes, "ways", c->ways,
                          "line", c->line_bytes, "sector", c->sector_bytes);
    if (is_l2)
        json_object_set_new(o, "slices", json_integer(c->slices));
    json_object_set_new(o, "index", json_string(c->index == INDEX_FERMI_HASH ? "fermi-hash" : "linear"));
    if (!is_l2)
        json_object_set_new(o, "write", json_string(c->write == WRITE_ALLOCATE ? "allocate" : "evict"));
    else if (c->write == WRITE_LAZY_FETCH) /* written only when not the default */
        json_object_set_new(o, "write", json_string("lazy-fetch"));
    json_object_set_new(o, "policy", json_string(c->policy));
    return o;
}

json_t *config_to_json(const gpu_config *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(c->name));
    json_object_set_new(o, "note", json_string(c->note));
    json_object_set_new(o, "approx", json_boolean(c->approx));
    json_object_set_new(o, "sms", json_integer(c->sms));
    json_object_set_new(o, "max_ctas_per_sm", json_integer(c->max_ctas_per_sm));
    json_object_set_new(o, "max_warps_per_sm", json_integer(c->max_warps_per_sm));
    json_object_set_new(o, "max_threads_per_sm", json_integer(c->max_threads_per_sm));
    json_object_set_new(o, "registers_per_sm", json_integer(c->registers_per_sm));
    json_object_set_new(o, "shared_mem_per_sm", json_integer(c->shared_mem_per_sm));
    json_object_set_new(o, "schedulers_per_sm", json_integer(c->schedulers_per_sm));
    json_object_set_new(o, "l1", cache_to_json(&c->l1, 0));
    json_object_set_new(o, "l2", cache_to_json(&c->l2, 1));
    json_object_set_new(o, "latency", json_pack("{s:i,s:i}", "l2", c->l2_latency, "dram", c->dram_latency));
    json_object_set_new(o, "mshr", json_pack("{s:i,s:i}", "entries", c->mshr_entries, "merges", c->mshr_merges));
    json_object_set_new(o, "gto_k", json_integer(c->gto_k));
    timing_config defaults = TIMING_DEFAULTS;
    if (memcmp(&c->timing, &defaults, sizeof defaults) != 0)
        json_object_set_new(o, "timing", timing_config_to_json(&c->timing));
    return o;
}

/* ---- validation ---- */

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static int validate_cache(const cache_config *c, const char *level, ws_error *err)
{
    if (c->ways == 0)
        return ws_fail(err, "%s.ways: must be at least 1", level);
    if (!is_pow2(c->line_bytes) || c->line_bytes < 32 || c->line_bytes > 128)
        return ws_fail(err, "%s.line: %u is not a power of two from 32 to 128 bytes", level,
                       c->line_bytes);
    if (c->sector_bytes && c->sector_bytes != 32)
        return ws_fail(err, "%s.sector: must be 0 (unsectored) or 32", level);
    if (c->sector_bytes > c->line_bytes)
        return ws_fail(err, "%s.line: %u is smaller than the sector (%u)", level, c->line_bytes,
                       c->sector_bytes);
    if (c->slices == 0 || c->slices > 4096)
        return ws_fail(err, "%s.slices: must be 1 to 4096", level);
    uint64_t per_set = (uint64_t)c->ways * c->line_bytes * c->slices;
    if (c->size_bytes == 0 || c->size_bytes % per_set)
        return ws_fail(err, "%s.size: %llu bytes is not a whole number of sets (%u ways x %u B "
                       "x %u slices)", level, (unsigned long long)c->size_bytes, c->ways,
                       c->line_bytes, c->slices);
    uint64_t sets = c->size_bytes / per_set;
    if (sets > (1u << 24) || (uint64_t)c->ways * sets > (1u << 26))
        return ws_fail(err, "%s.size: %llu sets of %u ways is more than warpscope models", level,
                       (unsigned long long)sets, c->ways);
    if (c->index == INDEX_FERMI_HASH && sets != 32 && sets != 64)
        return ws_fail(err, "%s.index: the Fermi hash needs 32 or 64 sets, not %llu", level,
                       (unsigned long long)sets);
    if (!c->policy[0])
        return ws_fail(err, "%s.policy: missing", level);
    policy_spec spec;
    ws_error why;
    if (policy_spec_parse(c->policy, &spec, &why) != 0)
        return ws_fail(err, "%s.policy: %s", level, why.msg);
    if (c->ways > 64)
        return ws_fail(err, "%s.ways: %u is more than the 64 warpscope models", level, c->ways);
    return 0;
}

/* What one replay of the configured hierarchy holds per cache line, all
 * tables counted: tag, policy words, filler, sector masks, owners and fill
 * times, pending time (analyzer/cache.c), plus in `analyze` the scheduler's
 * reference L1 and the locality windows over the same lines.  Measured:
 * 126 B per L1 line for analyze with 16 SMs of 16 MiB L1s. */
#define MODEL_BYTES_PER_LINE 128u
#define MODEL_LIMIT_DEFAULT_MIB 4096u

uint64_t config_model_bytes(const gpu_config *c)
{
    return ((uint64_t)c->sms * cache_config_lines(&c->l1) + cache_config_lines(&c->l2)) *
           MODEL_BYTES_PER_LINE;
}

uint64_t config_model_limit(void)
{
    return ws_env_limit_bytes("WARPSCOPE_MODEL_LIMIT", MODEL_LIMIT_DEFAULT_MIB);
}

/* A config can ask for more cache state than the machine has, and the
 * allocation would fail (or swap) only after the trace is open: refuse
 * up front, naming the level that holds most of it. */
static int check_model_memory(const gpu_config *c, ws_error *err)
{
    uint64_t need = config_model_bytes(c), limit = config_model_limit();
    if (need <= limit)
        return 0;
    uint64_t l1 = (uint64_t)c->sms * cache_config_lines(&c->l1);
    int l1_most = l1 >= cache_config_lines(&c->l2);
    return ws_fail(err, "%s: the cache model would need about %llu MiB (%s), over the limit of "
                   "%llu MiB (set WARPSCOPE_MODEL_LIMIT=MiB to allow it)",
                   l1_most ? "l1.size" : "l2.size", (unsigned long long)(need >> 20),
                   l1_most ? "one L1 per SM" : "the L2", (unsigned long long)(limit >> 20));
}

int config_check_models(const gpu_config *const *configs, uint32_t count, ws_error *err)
{
    uint64_t need = 0, limit = config_model_limit();
    for (uint32_t i = 0; i < count; i++)
        need += config_model_bytes(configs[i]);
    if (need <= limit || count < 2) /* one model was judged with its config */
        return 0;
    return ws_fail(err, "the %u cache models replayed together would need about %llu MiB, over "
                   "the limit of %llu MiB (compare fewer, or set WARPSCOPE_MODEL_LIMIT=MiB to "
                   "allow it)",
                   count, (unsigned long long)((need + (1u << 20) - 1) >> 20),
                   (unsigned long long)(limit >> 20));
}

int config_validate(const gpu_config *c, ws_error *err)
{
    if (c->sms == 0 || c->sms > 256)
        return ws_fail(err, "sms: %u is outside 1..256", c->sms);
    if (c->max_ctas_per_sm == 0 || c->max_ctas_per_sm > 64)
        return ws_fail(err, "max_ctas_per_sm: %u is outside 1..64", c->max_ctas_per_sm);
    if (c->max_warps_per_sm == 0 || c->max_warps_per_sm > 128)
        return ws_fail(err, "max_warps_per_sm: %u is outside 1..128", c->max_warps_per_sm);
    if (c->max_threads_per_sm < 32 || c->max_threads_per_sm > 4096)
        return ws_fail(err, "max_threads_per_sm: %u is outside 32..4096", c->max_threads_per_sm);
    if (c->schedulers_per_sm == 0 || c->schedulers_per_sm > 8)
        return ws_fail(err, "schedulers_per_sm: %u is outside 1..8", c->schedulers_per_sm);
    if (c->gto_k == 0)
        return ws_fail(err, "gto_k: must be at least 1");
    if (c->l2.write == WRITE_LAZY_FETCH && c->l2.sector_bytes == 0)
        return ws_fail(err, "l2.write: lazy-fetch needs a sectored L2 (l2.sector 32): it keeps "
                       "which sectors were written whole");
    const timing_config *t = &c->timing;
    if (t->issue_per_cycle == 0 || t->issue_per_cycle > 8)
        return ws_fail(err, "timing.issue_per_cycle: %u is outside 1..8", t->issue_per_cycle);
    if (t->ldst_requests_per_cycle == 0 || t->ldst_requests_per_cycle > 64)
        return ws_fail(err, "timing.ldst_requests_per_cycle: %u is outside 1..64",
                       t->ldst_requests_per_cycle);
    if (t->l2_requests_per_cycle == 0 || t->l2_requests_per_cycle > 64)
        return ws_fail(err, "timing.l2_requests_per_cycle: %u is outside 1..64",
                       t->l2_requests_per_cycle);
    if (t->dram_bytes_per_cycle == 0 || t->dram_bytes_per_cycle > 4096)
        return ws_fail(err, "timing.dram_bytes_per_cycle: %u is outside 1..4096",
                       t->dram_bytes_per_cycle);
    if (t->ldst_queue > TIMING_LDST_QUEUE_MAX)
        return ws_fail(err, "timing.ldst_queue: %u is outside 0..%u", t->ldst_queue,
                       TIMING_LDST_QUEUE_MAX);
    if (t->l1_latency > 100000 || c->l2_latency > 100000 || c->dram_latency > 100000)
        return ws_fail(err, "latency: at most 100000 cycles");
    if (validate_cache(&c->l1, "l1", err) || validate_cache(&c->l2, "l2", err))
        return -1;
    if (c->l1.line_bytes != c->l2.line_bytes)
        return ws_fail(err, "l2.line: %u differs from l1.line (%u); warpscope needs one line size",
                       c->l2.line_bytes, c->l1.line_bytes);
    return check_model_memory(c, err);
}

/* ---- loading and overrides ---- */

int config_load(gpu_config *out, const char *name, ws_error *err)
{
    const char *text = config_preset_json(name);
    json_error_t jerr;
    json_t *doc;
    if (text) {
        doc = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    } else if (strchr(name, '/') || strstr(name, ".json")) {
        doc = json_load_file(name, JSON_REJECT_DUPLICATES, &jerr);
        if (!doc)
            return ws_fail(err, "%s: %s (line %d)", name, jerr.text, jerr.line);
        ws_inputs_add(name); /* no output of this run may replace it (util/inputs.h) */
    } else {
        char names[256] = "";
        for (int i = 0; config_preset_names[i]; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     config_preset_names[i]);
        return ws_fail(err, "unknown GPU '%s' (presets: %s; or a .json file)", name, names);
    }
    int rc = config_from_json(out, doc, name, err);
    json_decref(doc);
    /* A file's errors name it, whichever check failed (the range checks
     * name only the field: they also judge --set and --l1 overrides). */
    if (rc != 0 && !text && strncmp(err ? err->msg : name, name, strlen(name)) != 0)
        ws_fail_prefix(err, "%s: ", name);
    return rc;
}

/* A whole number of at most `max`, digits only (strtoull alone would take
 * a sign or spaces, and wrap), with an optional K, M or G when `units`.
 * Returns the end of the number, or NULL. */
static const char *parse_count(const char *p, int units, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (*p < '0' || *p > '9')
        return NULL;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (max - (uint64_t)(*p - '0')) / 10)
            return NULL;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    unsigned shift = !units                     ? 0
                     : (*p == 'K' || *p == 'k') ? 10
                     : (*p == 'M' || *p == 'm') ? 20
                     : (*p == 'G' || *p == 'g') ? 30
                                                : 0;
    if (shift) {
        if (v > max >> shift)
            return NULL;
        v <<= shift;
        p++;
    }
    *out = v;
    return p;
}

/* "32K:8:128[:32]": the size up to 2^40 bytes as in a config file, the
 * others 32-bit; the config's validation judges the values. */
static int parse_geometry(const char *text, cache_config *c, const char *option, ws_error *err)
{
    uint64_t v[4] = {0, 0, 0, c->sector_bytes};
    int n = 0;
    const char *p = text;
    while (n < 4 && p) {
        p = parse_count(p, n == 0, n == 0 ? UINT64_C(1) << 40 : UINT32_MAX, &v[n]);
        if (!p)
            break;
        n++;
        if (*p != ':' || n == 4)
            break;
        p++;
    }
    if (n < 3 || !p || *p != '\0') {
        size_t digits = strspn(text, "0123456789");
        if (digits && text[digits] && text[digits] != ':' &&
            !strchr("KkMmGg", text[digits]))
            return ws_fail(err, "%s: SIZE '%.*s' has the unit '%c'; use K, M or G (or none, for "
                           "bytes), got '%s'", option, (int)(digits + 1), text, text[digits], text);
        return ws_fail(err, "%s: expected SIZE:WAYS:LINE[:SECTOR] like 32K:8:128 (whole numbers, "
                       "SIZE at most 2^40 bytes), got '%s'", option, text);
    }
    c->size_bytes = v[0];
    c->ways = (uint32_t)v[1];
    c->line_bytes = (uint32_t)v[2];
    c->sector_bytes = (uint32_t)v[3];
    return 0;
}

/* The JSON value --set gives a field whose current value is `old`: a
 * number stays a whole number (K/M allowed), a flag true or false, and
 * anything else is a string.  NULL if the text does not fit. */
static json_t *set_value(const json_t *old, const char *text)
{
    if (json_is_integer(old)) {
        uint64_t v;
        const char *end = parse_count(text, 1, UINT64_C(1) << 40, &v);
        return end && !*end ? json_integer((json_int_t)v) : NULL;
    }
    if (json_is_boolean(old))
        return strcmp(text, "true") == 0 ? json_true() : strcmp(text, "false") == 0 ? json_false() : NULL;
    return json_string(text);
}

/* --set FIELD=VALUE: the config as its file would say it, with one field
 * changed, read back as a file is (so every file check applies). */
static int set_field(gpu_config *c, const char *assignment, ws_error *err)
{
    char path[64];
    const char *eq = strchr(assignment, '=');
    size_t len = eq ? (size_t)(eq - assignment) : 0;
    if (!len || len >= sizeof path)
        return ws_fail(err, "--set: expected FIELD=VALUE like max_warps_per_sm=64 or l1.ways=8, "
                       "got '%s'", assignment);
    memcpy(path, assignment, len);
    path[len] = '\0';
    json_t *doc = config_to_json(c), *parent = doc;
    if (!json_object_get(doc, "timing")) /* omitted at its defaults, but settable */
        json_object_set_new(doc, "timing", timing_config_to_json(&c->timing));
    json_t *l2 = json_object_get(doc, "l2");
    if (json_is_object(l2) && !json_object_get(l2, "write")) /* likewise */
        json_object_set_new(l2, "write", json_string("allocate"));
    const char *leaf = path;
    char *dot = strchr(path, '.');
    if (dot) {
        *dot = '\0';
        parent = json_object_get(doc, path);
        leaf = dot + 1;
        *dot = '.';
    }
    const json_t *old = json_is_object(parent) ? json_object_get(parent, leaf) : NULL;
    int rc = -1;
    json_t *value;
    if (!old)
        ws_fail(err, "--set: no field '%s' in a GPU config (docs/gpu-configs.md lists them)", path);
    else if (json_is_object(old))
        ws_fail(err, "--set: '%s' is a group of fields: set one, like %s.%s", path, path,
                json_object_iter_key(json_object_iter((json_t *)old)));
    else if (!(value = set_value(old, eq + 1)))
        ws_fail(err, "--set: %s takes %s, not '%s'", path,
                json_is_integer(old)   ? "a whole number"
                : json_is_boolean(old) ? "true or false"
                                       : "UTF-8 text",
                eq + 1);
    else if (json_object_set_new(parent, leaf, value) != 0)
        ws_fail(err, "out of memory");
    else {
        gpu_config changed;
        rc = config_from_json(&changed, doc, "--set", err);
        if (rc == 0)
            *c = changed;
    }
    json_decref(doc);
    return rc;
}

int config_override(gpu_config *c, const char *option, const char *value, ws_error *err)
{
    if (strcmp(option, "--set") == 0) {
        if (set_field(c, value, err) != 0)
            return -1;
    } else if (strcmp(option, "--sms") == 0) {
        size_t digits = strspn(value, "0123456789");
        if (!digits || value[digits])
            return ws_fail(err, "--sms: expected a whole number, got '%s'", value);
        uint64_t v;
        if (!parse_count(value, 0, 256, &v)) /* validation's range, before any cut to 32 bits */
            return ws_fail(err, "sms: %s is outside 1..256", value);
        c->sms = (uint32_t)v;
    } else if (strcmp(option, "--l1") == 0 || strcmp(option, "--l2") == 0) {
        cache_config *cache = option[3] == '1' ? &c->l1 : &c->l2;
        /* --l1 is the geometry only; a policy name here gets pointed to
         * --l1-policy rather than guessed at (one meaning per option). */
        if (!strchr(value, ':') && !(value[0] >= '0' && value[0] <= '9'))
            return ws_fail(err, "%s takes a geometry SIZE:WAYS:LINE[:SECTOR] like 32K:8:128, not "
                           "'%s': a policy goes to %s-policy", option, value, option);
        if (parse_geometry(value, cache, option, err) != 0)
            return -1;
        if (cache->index == INDEX_FERMI_HASH && cache_config_sets(cache) != 32 &&
            cache_config_sets(cache) != 64)
            cache->index = INDEX_LINEAR; /* a new geometry the hash cannot index */
    } else if (strcmp(option, "--l1-policy") == 0 || strcmp(option, "--l2-policy") == 0) {
        cache_config *cache = option[3] == '1' ? &c->l1 : &c->l2;
        if (strlen(value) >= sizeof cache->policy)
            return ws_fail(err, "%s: policy name too long", option);
        snprintf(cache->policy, sizeof cache->policy, "%s", value);
    } else {
        return 1;
    }
    snprintf(c->note + strlen(c->note), sizeof c->note - strlen(c->note), "%s%s %s",
             c->note[0] ? "; " : "", option, value);
    return config_validate(c, err) == 0 ? 0 : -1;
}
