/* util/env_limit.h: memory limits a user may raise through the environment
 * (WARPSCOPE_XZ_MEMLIMIT, WARPSCOPE_MODEL_LIMIT: README.md, "Limits"). */
#ifndef WS_ENV_LIMIT_H
#define WS_ENV_LIMIT_H

#include <stdint.h>

/* The limit in bytes: the variable's whole number of MiB (1 to 2^30) when
 * it holds one, else default_mib. */
uint64_t ws_env_limit_bytes(const char *variable, uint64_t default_mib);

#endif
