/* cli/default_gpu.h: the GPU preset a command uses when not given --gpu:
 * the family of the GPU the trace was recorded on (docs/gpu-configs.md,
 * "The default GPU"), else fermi. */
#ifndef WS_DEFAULT_GPU_H
#define WS_DEFAULT_GPU_H

/* True when argv (argv[0] the command) holds the option `name`. */
int cli_has_option(int argc, char **argv, const char *name);

/* The preset for the trace at path ("fermi" when it names no GPU, or cannot
 * be opened: the command's own open reports that).  When it is another
 * preset, says which and why on stderr unless quiet. */
const char *cli_default_gpu(const char *path, int quiet);

/* The --gpu line of every command's usage text. */
#define CLI_GPU_USAGE                                                                      \
    "  --gpu NAME            fermi, kepler-s2, pascal, volta, ampere, hopper, dacache,\n"   \
    "                        poise, or a JSON file (docs/gpu-configs.md); default: the\n"   \
    "                        trace's GPU family when it names one, else fermi\n"

#endif
