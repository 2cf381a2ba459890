/* analyzer/config.h: the GPU configuration (docs/metrics.md §6, §7, §10).
 *
 * Presets are JSON documents (configs/NAME.json, also built into the binary
 * so --gpu NAME works from anywhere); --gpu FILE.json loads any file of the
 * same form; command-line overrides change single fields.  Every config is
 * validated, with messages that name the field. */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef enum set_index { INDEX_LINEAR = 0, INDEX_FERMI_HASH } set_index;

/* What a cache does with a write (docs/metrics.md §7, "Write policy").
 * L1: evict or allocate.  L2 (always write-back, write-allocate): allocate
 * makes the sectors a write touches readable; lazy-fetch makes readable
 * only those it writes whole. */
typedef enum write_policy {
    WRITE_EVICT = 0, /* L1: write-through, no-write-allocate, evict on a write hit (Fermi) */
    WRITE_ALLOCATE,  /* L1: write-through, sector write-allocate (Volta and later); L2: the default */
    WRITE_LAZY_FETCH /* L2: a sector written in part is fetched on its next read (GPGPU-Sim's
                      * lazy fetch-on-read) */
} write_policy;

typedef struct cache_config {
    uint64_t size_bytes;  /* total (all slices) */
    uint32_t ways;
    uint32_t line_bytes;
    uint32_t sector_bytes; /* 0 = not sectored, else 32 */
    uint32_t slices;       /* L2 only; 1 for L1 */
    set_index index;
    write_policy write;    /* L1: evict or allocate; L2: allocate or lazy-fetch */
    char policy[24];
} cache_config;

/* The timed replay's clock, queues and rates (docs/metrics.md §12); the
 * functional replay ignores them.  Optional in a config file ("timing"),
 * the defaults below otherwise. */
typedef struct timing_config {
    uint32_t issue_per_cycle;       /* warp instructions each scheduler issues a cycle */
    uint32_t l1_latency;            /* an L1 hit's cycles, issue to data */
    uint32_t ldst_requests_per_cycle; /* requests an SM's L1 takes a cycle */
    uint32_t l2_requests_per_cycle; /* requests (sectored L2: sectors) a slice takes a cycle */
    uint32_t dram_bytes_per_cycle;  /* bytes a slice's DRAM channel moves a cycle */
    uint32_t ldst_queue; /* memory instructions that may wait, issued, for the LD/ST unit */
} timing_config;

#define TIMING_LDST_QUEUE_MAX 64

#define TIMING_DEFAULTS {.issue_per_cycle = 1, .l1_latency = 20, .ldst_requests_per_cycle = 1, \
                         .l2_requests_per_cycle = 1, .dram_bytes_per_cycle = 16}

typedef struct gpu_config {
    char name[32];
    char note[160];
    int approx;
    uint32_t sms;
    uint32_t max_ctas_per_sm, max_warps_per_sm, max_threads_per_sm;
    uint32_t registers_per_sm, shared_mem_per_sm;
    uint32_t schedulers_per_sm;
    cache_config l1, l2;
    uint32_t l2_latency, dram_latency;
    uint32_t mshr_entries, mshr_merges;
    uint32_t gto_k;
    timing_config timing;
} gpu_config;

/* Sets of one slice: size ÷ (slices × ways × line). */
uint64_t cache_config_sets(const cache_config *c);
uint64_t cache_config_lines(const cache_config *c); /* all slices */

/* Preset by name, or a JSON file when name ends in ".json" / contains '/'. */
int config_load(gpu_config *out, const char *name_or_path, ws_error *err);
int config_from_json(gpu_config *out, const json_t *doc, const char *what, ws_error *err);
/* The config as its file says it; the "timing" group only where it is
 * not the defaults (so the reports of the functional replay, which ignores
 * it, keep their bytes). */
json_t *config_to_json(const gpu_config *c);
/* The timing group alone, every field. */
json_t *timing_config_to_json(const timing_config *t);
int config_validate(const gpu_config *c, ws_error *err);

/* The cache state one replay of c holds, estimated from its geometry, and
 * the most config_validate accepts: 4 GiB unless WARPSCOPE_MODEL_LIMIT
 * (MiB) says otherwise (docs/gpu-configs.md, "Limits"). */
uint64_t config_model_bytes(const gpu_config *c);
uint64_t config_model_limit(void);
/* compare and sweep replay many hierarchies at once: their models'
 * memory together must fit the limit too, checked before any is made. */
int config_check_models(const gpu_config *const *configs, uint32_t count, ws_error *err);

/* Names of the built-in presets, NULL-terminated, and their JSON text. */
extern const char *const config_preset_names[];
const char *config_preset_json(const char *name);
/* The preset for a trace's GPU of origin (a preset name or "sm_XY"), or
 * NULL when it names none. */
const char *config_preset_for_gpu(const char *gpu);
/* The preset of a trace that names no GPU (docs/gpu-configs.md, "The
 * default GPU"): a current GPU, sectored with a write-allocate L1. */
#define CONFIG_DEFAULT_PRESET "hopper"
/* For a config named after one of the papers' presets (fermi, kepler-s2,
 * dacache, poise): one line saying it is kept for the papers' setups and
 * naming the current default ("fermi is a 2010 preset kept for the papers'
 * setups; current GPUs: --gpu hopper"), in dst; 0 for any other config. */
int config_paper_preset_note(const gpu_config *c, char *dst, size_t cap);

/* Applies one override: option is "--sms", "--l1", "--l2", "--l1-policy",
 * "--l2-policy" or "--set"; caches take SIZE:WAYS:LINE[:SECTOR] with K/M
 * suffixes (policies go to --l1-policy and --l2-policy); --set takes
 * FIELD=VALUE for any field of the config file, nested ones dotted
 * (l1.index=fermi-hash, mshr.entries=16: docs/metrics.md §10, any field).
 * Returns 1 if the option is not a config override, 0 done, -1 error. */
int config_override(gpu_config *c, const char *option, const char *value, ws_error *err);

#endif
