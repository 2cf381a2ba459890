/* tests/test_config.c: GPU presets, files, overrides and validation. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "analyzer/config.h"
#include "tests/helpers.h"

Test(config, every_preset_validates_and_matches_its_file)
{
    for (int i = 0; config_preset_names[i]; i++) {
        const char *name = config_preset_names[i];
        gpu_config builtin, file;
        ws_error err;
        cr_assert_eq(config_load(&builtin, name, &err), 0, "%s: %s", name, err.msg);
        char path[128];
        snprintf(path, sizeof path, "configs/%s.json", name);
        cr_assert_eq(config_load(&file, path, &err), 0, "%s: %s", path, err.msg);
        json_t *a = config_to_json(&builtin), *b = config_to_json(&file);
        cr_assert(json_equal(a, b), "configs/%s.json differs from the built-in preset", name);
        json_decref(a);
        json_decref(b);
    }
}

Test(config, fermi_figures)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    cr_assert_eq(c.sms, 15);
    cr_assert_eq(cache_config_sets(&c.l1), 32, "16 KB / (4 ways x 128 B)");
    cr_assert_eq(cache_config_sets(&c.l2), 128, "768 KB / (8 x 128 B x 6 slices)");
    cr_assert_eq(cache_config_lines(&c.l1), 128);
    gpu_config d;
    cr_assert_eq(config_load(&d, "dacache", &err), 0);
    cr_assert_eq(d.l1.index, INDEX_FERMI_HASH);
}

Test(config, overrides)
{
    gpu_config c;
    ws_error err;
    config_load(&c, "fermi", &err);
    cr_assert_eq(config_override(&c, "--sms", "30", &err), 0);
    cr_assert_eq(config_override(&c, "--l1", "32K:8:128", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--l2", "768K:16:128", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--l1-policy", "srrip", &err), 0);
    cr_assert_eq(c.sms, 30);
    cr_assert_eq(c.l1.size_bytes, 32768);
    cr_assert_eq(c.l1.ways, 8);
    cr_assert_eq(c.l2.ways, 16);
    cr_assert_str_eq(c.l1.policy, "srrip");
    cr_assert(strstr(c.note, "--sms 30") != NULL);
    cr_assert_eq(config_override(&c, "--frob", "1", &err), 1, "not a config option");
}

static void expect_invalid(const char *option, const char *value, const char *field)
{
    gpu_config c;
    ws_error err;
    config_load(&c, "fermi", &err);
    cr_assert_eq(config_override(&c, option, value, &err), -1, "%s %s accepted", option, value);
    cr_assert(strstr(err.msg, field) != NULL, "%s %s: '%s' does not name %s", option, value,
              err.msg, field);
}

Test(config, invalid_fields_are_named)
{
    expect_invalid("--l1", "16K:0:128", "l1.ways");
    expect_invalid("--l1", "16K:4:100", "l1.line");
    expect_invalid("--l1", "16K:4:16", "l1.line");
    expect_invalid("--l1", "10000:4:128", "l1.size");
    expect_invalid("--l2", "768K:8", "--l2: expected SIZE:WAYS:LINE");
    expect_invalid("--l1", "srrip", "--l1 takes a geometry SIZE:WAYS:LINE[:SECTOR] like 32K:8:128, "
                                    "not 'srrip': a policy goes to --l1-policy");
    expect_invalid("--l1-policy", "srip", "unknown policy 'srip'");
    expect_invalid("--l1", "16K:4:128:64", "l1.sector");
    expect_invalid("--sms", "0", "sms");
    expect_invalid("--sms", "many", "--sms");
}

/* l2.write (docs/gpu-configs.md): allocate by default, and then not written
 * into a report's config, so reports stay as they were; lazy-fetch needs a
 * sectored L2; the L1's own values are not the L2's. */
Test(config, l2_write_policy)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    cr_assert_eq(c.l2.write, WRITE_ALLOCATE);
    json_t *doc = config_to_json(&c);
    cr_expect_null(json_object_get(json_object_get(doc, "l2"), "write"));
    json_decref(doc);
    cr_assert_eq(config_override(&c, "--set", "l2.sector=32", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--set", "l2.write=lazy-fetch", &err), 0, "%s", err.msg);
    cr_assert_eq(c.l2.write, WRITE_LAZY_FETCH);
    doc = config_to_json(&c);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "l2"), "write")),
                     "lazy-fetch");
    json_decref(doc);
    expect_invalid("--set", "l2.write=lazy-fetch", "l2.write: lazy-fetch needs a sectored L2");
    expect_invalid("--set", "l2.write=evict", "'evict' is not allocate or lazy-fetch");
}

/* Numbers past 32 bits, signs and spaces are errors, never values cut to
 * 32 bits (4294967311 would be 15 SMs, 4294967300 ways 4). */
Test(config, overrides_never_wrap)
{
    expect_invalid("--sms", "4294967311", "sms: 4294967311 is outside 1..256");
    expect_invalid("--sms", "99999999999999999999999", "sms: 99999999999999999999999 is outside");
    expect_invalid("--sms", "-4294967281", "--sms: expected a whole number");
    expect_invalid("--sms", "+15", "--sms: expected a whole number");
    expect_invalid("--sms", " 15", "--sms: expected a whole number");
    expect_invalid("--sms", "", "--sms: expected a whole number");
    expect_invalid("--l1", "16K:4294967300:128", "--l1: expected SIZE:WAYS:LINE");
    expect_invalid("--l1", "16K:-4:128", "--l1: expected SIZE:WAYS:LINE");
    expect_invalid("--l1", "16K:4:4294967424", "--l1: expected SIZE:WAYS:LINE");
    expect_invalid("--l1", "18014398509481984K:4:128", "--l1: expected SIZE:WAYS:LINE");
    expect_invalid("--l1", "1099511627777:4:128", "--l1: expected SIZE:WAYS:LINE");
    expect_invalid("--l2", "768K:8:128:32:1", "--l2: expected SIZE:WAYS:LINE");
    expect_invalid("--l2", "768K:8:", "--l2: expected SIZE:WAYS:LINE");
    expect_invalid("--l2", "768KK:8:128", "--l2: expected SIZE:WAYS:LINE");
    gpu_config c;
    ws_error err;
    config_load(&c, "fermi", &err);
    cr_assert_eq(config_override(&c, "--l2", "3M:8:128:32", &err), 0, "%s", err.msg);
    cr_assert_eq(c.l2.size_bytes, 3u << 20);
    cr_assert_eq(c.l2.sector_bytes, 32);
    cr_assert_eq(config_override(&c, "--sms", "256", &err), 0, "%s", err.msg);
    cr_assert_eq(c.sms, 256);
}

Test(config, files_unknown_keys_and_bad_json)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "mine.json");
    json_t *doc = json_loads(config_preset_json("fermi"), 0, NULL);
    json_object_set_new(doc, "l3", json_integer(1));
    json_dump_file(doc, path, 0);
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, path, &err), -1);
    cr_assert(strstr(err.msg, "unknown field 'l3'") != NULL, "%s", err.msg);
    json_object_del(doc, "l3");
    json_object_set_new(json_object_get(doc, "l1"), "index", json_string("fermi-hash"));
    json_object_set_new(json_object_get(doc, "l1"), "ways", json_integer(1)); /* 128 sets */
    json_dump_file(doc, path, 0);
    cr_assert_eq(config_load(&c, path, &err), -1);
    cr_assert(strstr(err.msg, "l1.index: the Fermi hash needs 32 or 64 sets") != NULL, "%s", err.msg);
    json_decref(doc);
    test_write_file(path, "{ not json", 10);
    cr_assert_eq(config_load(&c, path, &err), -1);
    cr_assert(strstr(err.msg, path) != NULL);
    cr_assert_eq(config_load(&c, "maxwell", &err), -1);
    cr_assert(strstr(err.msg, "unknown GPU 'maxwell' (presets: fermi, kepler-s2,") != NULL);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* --set reaches every field of the config file (docs/metrics.md §10: any field can be
 * overridden), goes through the file's checks, and names what is wrong. */
Test(config, set_any_field)
{
    gpu_config c, by_geometry;
    ws_error err;
    config_load(&c, "fermi", &err);
    const char *sets[] = {"max_warps_per_sm=64", "l1.index=fermi-hash", "latency.dram=300",
                          "approx=true", "mshr.entries=16", "l2.size=1536K", "gto_k=4",
                          "l1.policy=srrip", "name=mine"};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++)
        cr_assert_eq(config_override(&c, "--set", sets[i], &err), 0, "%s: %s", sets[i], err.msg);
    cr_assert_eq(c.max_warps_per_sm, 64);
    cr_assert_eq(c.l1.index, INDEX_FERMI_HASH);
    cr_assert_eq(c.dram_latency, 300);
    cr_assert(c.approx);
    cr_assert_eq(c.mshr_entries, 16);
    cr_assert_eq(c.l2.size_bytes, 1536u << 10);
    cr_assert_eq(c.gto_k, 4);
    cr_assert_str_eq(c.l1.policy, "srrip");
    cr_assert_str_eq(c.name, "mine");
    cr_assert_eq(c.sms, 15, "fields not set keep their values");
    cr_assert(strstr(c.note, "--set max_warps_per_sm=64; --set l1.index=fermi-hash") != NULL,
              "%s", c.note);

    /* The same change by --set and by the geometry option: the same config. */
    config_load(&c, "fermi", &err);
    config_load(&by_geometry, "fermi", &err);
    cr_assert_eq(config_override(&c, "--set", "l1.ways=8", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&by_geometry, "--l1", "16K:8:128", &err), 0, "%s", err.msg);
    memset(c.note, 0, sizeof c.note);
    memset(by_geometry.note, 0, sizeof by_geometry.note);
    cr_assert_eq(memcmp(&c, &by_geometry, sizeof c), 0);

    expect_invalid("--set", "l1.frob=1", "--set: no field 'l1.frob'");
    expect_invalid("--set", "frob=1", "--set: no field 'frob'");
    expect_invalid("--set", "l3.size=1", "--set: no field 'l3.size'");
    expect_invalid("--set", "l1=3", "--set: 'l1' is a group of fields");
    expect_invalid("--set", "max_warps_per_sm", "--set: expected FIELD=VALUE");
    expect_invalid("--set", "=4", "--set: expected FIELD=VALUE");
    expect_invalid("--set", "max_warps_per_sm=-1", "max_warps_per_sm takes a whole number");
    expect_invalid("--set", "max_warps_per_sm=", "max_warps_per_sm takes a whole number");
    expect_invalid("--set", "sms=9999999999", "'sms' must be a whole number from 0 to 4294967295");
    expect_invalid("--set", "l1.size=99999999999999999999", "l1.size takes a whole number");
    expect_invalid("--set", "approx=yes", "approx takes true or false");
    expect_invalid("--set", "name=\xff\xfe", "name takes UTF-8 text");
    expect_invalid("--set", "name=a-name-longer-than-thirty-one-characters", "'name' must be a string of at most 31");
    expect_invalid("--set", "max_warps_per_sm=1000", "max_warps_per_sm: 1000 is outside 1..128");
    expect_invalid("--set", "l1.ways=3", "l1.size");
    expect_invalid("--set", "l1.index=modulo", "index 'modulo' is not linear or fermi-hash");
    expect_invalid("--set", "l2.policy=nope", "l2.policy: unknown policy 'nope'");
}

/* A geometry whose cache state would not fit is refused up front, naming
 * the field; WARPSCOPE_MODEL_LIMIT moves the limit. */
Test(config, model_memory_past_the_limit_is_refused)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    cr_assert_eq(config_override(&c, "--sms", "256", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--l1", "1024M:64:128", &err), -1);
    cr_assert(strstr(err.msg, "l1.size: the cache model would need about 262") != NULL, "%s",
              err.msg);
    cr_assert(strstr(err.msg, "over the limit of 4096 MiB") != NULL, "%s", err.msg);
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    cr_expect_eq(config_model_bytes(&c), (15ull * 128 + 6144) * 128, "fermi: 15 x 128 + 6144 lines");
    setenv("WARPSCOPE_MODEL_LIMIT", "1", 1);
    cr_assert_eq(config_validate(&c, &err), 0, "fermi's ~1 MiB fits 1 MiB: %s", err.msg);
    cr_assert_eq(config_override(&c, "--l2", "1536K:16:128", &err), -1);
    cr_assert(strstr(err.msg, "l2.size: ") == err.msg, "%s", err.msg);
    unsetenv("WARPSCOPE_MODEL_LIMIT");
}
