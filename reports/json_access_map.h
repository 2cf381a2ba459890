/* reports/json_access_map.h: analyzer/access_map.h as the report's
 * top-level `access_map` object (docs/report-schema.md). */
#ifndef WS_JSON_ACCESS_MAP_H
#define WS_JSON_ACCESS_MAP_H

#include <jansson.h>

#include "analyzer/access_map.h"
#include "formats/wst.h"

/* NULL (the field is left out) when m is NULL or out of memory.  With r,
 * each region names the allocation it starts in (allocation, offset). */
json_t *report_json_access_map(const access_map *m, const wst_reader *r);

#endif
