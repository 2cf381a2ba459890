/* cli/default_gpu.c: see default_gpu.h. */
#include "cli/default_gpu.h"

#include <stdio.h>
#include <string.h>

#include "formats/wst.h"

int cli_has_option(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

const char *cli_default_gpu(const char *path, const char *fallback, int quiet)
{
    ws_error err;
    wst_reader *r = path ? wst_reader_open(path, &err) : NULL;
    if (!r)
        return fallback;
    const char *origin = wst_reader_trace(r)->origin.gpu;
    const char *preset = config_preset_for_gpu(origin);
    if (preset && !quiet)
        fprintf(stderr, "warpscope: %s was recorded on %s: using the %s preset (--gpu to choose another)\n",
                path, origin, preset);
    wst_reader_close(r);
    return preset ? preset : fallback;
}

void cli_paper_preset_note(const gpu_config *config, int quiet)
{
    char note[192];
    if (!quiet && config_paper_preset_note(config, note, sizeof note))
        fprintf(stderr, "warpscope: note: %s\n", note);
}
