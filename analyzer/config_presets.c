/* analyzer/config_presets.c: the GPU presets of docs/metrics.md §10, built in.
 * configs/NAME.json holds the same documents for reading and copying;
 * tests/test_config.c checks that the two agree. */
#include <stdio.h>
#include <string.h>

#include "analyzer/config.h"

#define PRESET(name, note, approx, sms, ctas, warps, threads, regs, shmem, scheds, l1size, l1ways,  \
               l1sector, l1index, l1write, l2size, l2ways, l2slices)                                        \
    "{\"name\": \"" name "\", \"note\": \"" note "\", \"approx\": " approx ", \"sms\": " #sms        \
    ", \"max_ctas_per_sm\": " #ctas ", \"max_warps_per_sm\": " #warps                               \
    ", \"max_threads_per_sm\": " #threads ", \"registers_per_sm\": " #regs                          \
    ", \"shared_mem_per_sm\": " #shmem ", \"schedulers_per_sm\": " #scheds                          \
    ", \"l1\": {\"size\": " #l1size ", \"ways\": " #l1ways ", \"line\": 128, \"sector\": " #l1sector \
    ", \"index\": \"" l1index "\", \"write\": \"" l1write "\", \"policy\": \"lru\"}"                     \
    ", \"l2\": {\"size\": " #l2size ", \"ways\": " #l2ways ", \"line\": 128, \"sector\": 0"          \
    ", \"slices\": " #l2slices ", \"index\": \"linear\", \"policy\": \"lru\"}"                       \
    ", \"latency\": {\"l2\": 120, \"dram\": 220}, \"mshr\": {\"entries\": 32, \"merges\": 8}"        \
    ", \"gto_k\": 8}"

const char *const config_preset_names[] = {"fermi", "kepler-s2", "dacache", "poise", "pascal",
                                           "volta", "ampere", "hopper", NULL};

static const char *const preset_json[] = {
    PRESET("fermi", "S0, S1, S3 ch. 3-4", "false", 15, 8, 48, 1536, 32768, 49152, 2, 16384, 4, 0,
           "linear", "evict", 786432, 8, 6),
    PRESET("kepler-s2", "S2; L2 in 12 slices (not given by S2)", "false", 16, 16, 64, 2048, 65536,
           49152, 2, 16384, 4, 0, "linear", "evict", 1572864, 16, 12),
    PRESET("dacache", "S4", "false", 30, 8, 48, 1536, 32768, 49152, 2, 32768, 8, 0, "fermi-hash", "evict",
           786432, 16, 6),
    PRESET("poise", "S3 ch. 5; 2 MiB over 24 slices rounded to 85 sets a slice (1.99 MiB)",
           "false", 32, 8, 48, 1536, 32768, 49152, 2, 16384, 4, 0, "fermi-hash", "evict", 2088960, 8, 24),
    PRESET("pascal", "P100-like, approx.: 24 KiB sectored L1 data, 4 MiB L2 in 32 slices", "true",
           56, 32, 64, 2048, 65536, 65536, 2, 24576, 6, 32, "linear", "evict", 4194304, 16, 32),
    PRESET("volta", "V100-like, approx.: 32 KiB sectored L1 data, 6 MiB L2 in 48 slices", "true",
           80, 32, 64, 2048, 65536, 98304, 4, 32768, 4, 32, "linear", "allocate", 6291456, 16, 48),
    PRESET("ampere", "A100-like, approx.: 128 KiB sectored L1 data, 40 MiB L2 in 80 slices", "true",
           108, 32, 64, 2048, 65536, 167936, 4, 131072, 4, 32, "linear", "allocate", 41943040, 16, 80),
    PRESET("hopper", "H100-like, approx.: 192 KiB sectored L1 data, 50 MiB L2 in 100 slices", "true",
           132, 32, 64, 2048, 65536, 233472, 4, 196608, 6, 32, "linear", "allocate", 52428800, 16, 100),
};

/* The preset of the family a trace's GPU belongs to: its name when it is
 * a preset, else by compute capability ("sm_61": Pascal).  Families
 * without a preset of their own take the nearest one. */
const char *config_preset_for_gpu(const char *gpu)
{
    if (!gpu)
        return NULL;
    if (config_preset_json(gpu))
        return gpu;
    unsigned cc;
    char tail;
    if (sscanf(gpu, "sm_%u%c", &cc, &tail) != 1 || cc < 20)
        return NULL;
    static const struct {
        unsigned below;
        const char *preset;
    } families[] = {{30, "fermi"}, {50, "kepler-s2"}, {70, "pascal"}, {80, "volta"}, {90, "ampere"}};
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        if (cc < families[i].below)
            return families[i].preset;
    return "hopper";
}

/* The presets of the papers' setups (docs/metrics.md §10), with the year of
 * the GPU generation each models: kept so the papers' results reproduce,
 * not as models of a GPU anyone buys today. */
int config_paper_preset_note(const gpu_config *c, char *dst, size_t cap)
{
    static const struct {
        const char *name, *era;
    } papers[] = {{"fermi", "2010"}, {"kepler-s2", "2012 (Kepler)"},
                  {"dacache", "2010 (Fermi)"}, {"poise", "2010 (Fermi)"}};
    for (size_t i = 0; i < sizeof papers / sizeof *papers; i++)
        if (strcmp(c->name, papers[i].name) == 0) {
            snprintf(dst, cap, "%s is a %s preset kept for the papers' setups; current GPUs: --gpu %s",
                     c->name, papers[i].era, CONFIG_DEFAULT_PRESET);
            return 1;
        }
    return 0;
}

const char *config_preset_json(const char *name)
{
    for (int i = 0; config_preset_names[i]; i++)
        if (strcmp(config_preset_names[i], name) == 0)
            return preset_json[i];
    return NULL;
}
