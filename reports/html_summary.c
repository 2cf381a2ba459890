/* reports/html_summary.c: the page header: what was analyzed, and the key
 * figures as cards (the same list `warpscope report --summary` prints). */
#include "reports/html_page.h"
#include "reports/report_keys.h"
#include "reports/svg.h"

/* The keys of one kind, each as tags[0] label tags[1] value tags[2]. */
static void keys_html(FILE *out, const report_key *keys, size_t n, int context,
                      const char *const tags[3])
{
    for (size_t i = 0; i < n; i++) {
        if (keys[i].context != context)
            continue;
        fputs(tags[0], out);
        xml_escape(out, keys[i].label);
        fputs(tags[1], out);
        xml_escape(out, keys[i].value);
        fputs(tags[2], out);
    }
}

void html_summary(FILE *out, const json_t *doc)
{
    static const char *const context[3] = {"<dt>", "</dt><dd>", "</dd>"};
    /* The card's CSS puts the value above its label. */
    static const char *const card[3] = {"<div class=\"card\"><span>", "</span><b>", "</b></div>"};
    report_key keys[REPORT_KEYS_MAX];
    size_t n = report_keys(doc, keys);
    fputs("<header id=\"summary\">\n<h1>warpscope report</h1>\n<dl class=\"context\">", out);
    keys_html(out, keys, n, 1, context);
    fputs("</dl>\n<div class=\"cards\">", out);
    keys_html(out, keys, n, 0, card);
    fputs("</div>\n</header>\n", out);
}
