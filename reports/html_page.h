/* reports/html_page.h: what the HTML report's sections share (internal to
 * reports/html*.c).  Every section is one function of the document; a
 * section whose data the report lacks says so in a note instead. */
#ifndef WS_HTML_PAGE_H
#define WS_HTML_PAGE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/kernel_groups.h"
#include "reports/pc_groups.h"
#include "reports/source_lines.h"

/* A table column and what it means, in a section's how-to text. */
typedef struct html_column_text {
    const char *name, *meaning;
} html_column_text;

/* A section's words (html_text.c), in page order. */
typedef struct html_section_text {
    const char *id;    /* stable: tests and links find the section by it */
    const char *nav;   /* its name in the contents line */
    const char *title;
    const char *how;   /* how to read it */
} html_section_text;

extern const html_section_text html_sections[];
extern const size_t html_section_count;
const html_section_text *html_section_find(const char *id);
/* The columns of a section's table, defined under its how-to text, ended
 * by a {NULL} entry; NULL for a section without such a list. */
const html_column_text *html_section_columns(const char *id);

/* <section id=ID><h2>title</h2><p class="how">how</p> ... </section>, the
 * words from html_sections. */
/* The page up to <main>: doctype, CSP, title, style (html.c). */
void html_page_open(FILE *out, const char *title);
void html_section_begin(FILE *out, const char *id);
void html_section_end(FILE *out);
/* A short note in place of a chart whose data is not in the report. */
void html_absent(FILE *out, const char *what);
/* A line of prose in a drawn section: what a part of it lacks, a footnote. */
void html_note(FILE *out, const char *text);
/* <h3> over one chart of a section. */
void html_subtitle(FILE *out, const char *text);
/* A <td> holding text (escaped); cls may be NULL. */
void html_cell(FILE *out, const char *cls, const char *text);

/* The sections, in page order. */
void html_summary(FILE *out, const json_t *doc);
void html_bypass(FILE *out, const json_t *doc);
void html_pc_reuse(FILE *out, const json_t *doc, const pc_groups *pcs);
void html_sm_sharing(FILE *out, const json_t *doc);
void html_cta_distance(FILE *out, const json_t *doc, double largest_cta_distance);
void html_access_map(FILE *out, const json_t *doc);
void html_mrc(FILE *out, const json_t *doc);
void html_replay(FILE *out, const json_t *doc, const kernel_groups *groups);
void html_memory(FILE *out, const json_t *doc, const source_lines *lines);
/* Inside the replay: one row per kernel name, its launches on demand. */
void html_kernel_table(FILE *out, const kernel_groups *groups);
void html_mpli(FILE *out, const json_t *doc);
void html_remote_holders(FILE *out, const json_t *doc);
void html_policy_compare(FILE *out, const json_t *doc);
/* Inside the comparison: the CCN ring of each of policies[0, n) with one. */
void html_ccn(FILE *out, const json_t *policies, size_t n);
void html_pc_table(FILE *out, const json_t *doc, const pc_groups *pcs);
void html_store_pcs(FILE *out, const json_t *doc, const pc_groups *pcs);

#endif
