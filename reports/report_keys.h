/* reports/report_keys.h: the handful of figures a reader looks at first,
 * taken from a report document.  The HTML header shows them as cards and
 * `warpscope report --summary` prints them, so both always agree. */
#ifndef WS_REPORT_KEYS_H
#define WS_REPORT_KEYS_H

#include <jansson.h>
#include <stddef.h>

#define REPORT_KEYS_MAX 20

typedef struct report_key {
    const char *label;
    char value[160];
    int context; /* 1: what was analyzed (trace, GPU, schedule); 0: a result */
} report_key;

/* Fills out (REPORT_KEYS_MAX entries); returns how many.  Optional figures
 * (replay) appear only when the report has them. */
size_t report_keys(const json_t *doc, report_key *out);

#endif
