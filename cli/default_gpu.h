/* cli/default_gpu.h: the GPU preset a command uses when not given --gpu:
 * the family of the GPU the trace was recorded on (docs/gpu-configs.md,
 * "The default GPU"), else CONFIG_DEFAULT_PRESET (a current GPU); and the
 * one-line note a run on one of the papers' presets prints. */
#ifndef WS_DEFAULT_GPU_H
#define WS_DEFAULT_GPU_H

#include "analyzer/config.h"

/* True when argv (argv[0] the command) holds the option `name`. */
int cli_has_option(int argc, char **argv, const char *name);

/* The preset for the trace at path: `fallback` (CONFIG_DEFAULT_PRESET; for
 * sweep, whose grid is a paper's, fermi) when it names no GPU or cannot be
 * opened (the command's own open reports that).  When the trace names its
 * GPU, says which preset and why on stderr unless quiet. */
const char *cli_default_gpu(const char *path, const char *fallback, int quiet);

/* On a paper's preset (config_paper_preset_note), says so on stderr in one
 * line, "warpscope: note: ...", unless quiet.  Commands call it when their
 * run has succeeded, so a failure's stderr stays its one error line. */
void cli_paper_preset_note(const gpu_config *config, int quiet);

/* The --gpu line of every command's usage text. */
#define CLI_GPU_USAGE                                                                      \
    "  --gpu NAME            hopper, ampere, volta, pascal, or the papers' fermi,\n"        \
    "                        kepler-s2, dacache, poise; or a JSON file\n"                   \
    "                        (docs/gpu-configs.md); default: the trace's GPU family\n"      \
    "                        when it names one, else " CONFIG_DEFAULT_PRESET " (sweep: fermi)\n"

#endif
