/* tests/test_config.c: GPU presets, files, overrides and validation. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

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
    expect_invalid("--l1", "srip", "--l1: unknown policy 'srip' (see `warpscope policies`)");
    expect_invalid("--l1", "16K:4:128:64", "l1.sector");
    expect_invalid("--sms", "0", "sms");
    expect_invalid("--sms", "many", "--sms");
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
    cr_assert_eq(config_load(&c, "pascal", &err), -1);
    cr_assert(strstr(err.msg, "unknown GPU 'pascal' (presets: fermi, kepler-s2,") != NULL);
    free(path);
    test_tmpdir_cleanup(dir);
}
