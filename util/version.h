/* util/version.h: the program's version, for the CLI and the reports. */
#ifndef WS_VERSION_H
#define WS_VERSION_H
#define WARPSCOPE_VERSION "0.1.0"
#endif
