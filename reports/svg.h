/* reports/svg.h: writing SVG (and the XML-escaped text inside HTML).
 *
 * Plain functions on a FILE: each draws one element.  Every piece of text
 * goes through xml_escape(), so a kernel name such as `foo<float>` or a
 * path with `&` can never break the markup, and every number through
 * svg_num(), so a NaN never reaches an attribute.  Tooltips are SVG <title>
 * children: the browser shows them on hover with no script. */
#ifndef WS_SVG_H
#define WS_SVG_H

#include <stdio.h>

/* text with & < > " ' replaced by entities (safe in text and attributes). */
void xml_escape(FILE *out, const char *text);

/* A coordinate: one decimal, and 0 for NaN or infinities. */
void svg_num(FILE *out, double v);

/* <svg> with its size as attributes and viewBox, role="img" and aria-label. */
void svg_open(FILE *out, double width, double height, const char *label);
void svg_close(FILE *out);

/* <g class="cls"> ... </g>: parts of a chart a reader (and the layout
 * check of scripts/browser-test.sh) can find, such as the legend. */
void svg_group_open(FILE *out, const char *cls);
void svg_group_close(FILE *out);

/* fill is a colour; tip (may be NULL) becomes the hover text. */
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill, const char *tip);

/* cls: a CSS class of the page (axis, grid, marker), or NULL. */
void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls);

/* anchor: "start", "middle" or "end"; rotate: degrees about (x, y). */
void svg_text(FILE *out, double x, double y, const char *anchor, double rotate, const char *cls,
              const char *text);

/* A polyline through n points, in colour. */
void svg_polyline(FILE *out, const double *xs, const double *ys, unsigned n, const char *colour);

/* A point marker: filled, or hollow (a white centre), with hover text. */
void svg_circle(FILE *out, double x, double y, double r, const char *colour, int hollow,
                const char *tip);

#endif
