/* reports/numfmt.h: numbers as a reader wants them: 1.2M, 34.5%, 16 KiB.
 *
 * Each formatter returns its text by value, so it can sit inside a printf
 * argument list (`numfmt_count(x).s`); NaN (a null ratio) prints "n/a". */
#ifndef WS_NUMFMT_H
#define WS_NUMFMT_H

typedef struct numtext {
    char s[32];
} numtext;

typedef enum numfmt_kind {
    NUMFMT_COUNT,   /* 987, 12.3k, 1.2M */
    NUMFMT_PERCENT, /* a ratio in [0, 1] as 34.5% */
    NUMFMT_BYTES,   /* 512 B, 16 KiB, 1.5 MiB */
    NUMFMT_TIMES,   /* a relative value: 1.00×, 0.78× */
    NUMFMT_PLAIN,   /* up to 3 significant digits: 2.41 */
} numfmt_kind;

numtext numfmt(numfmt_kind kind, double value);
numtext numfmt_count(double value);
numtext numfmt_percent(double ratio);
numtext numfmt_bytes(double bytes);
/* An exact count with thousands separators for the terminal: 1,234,567. */
numtext numfmt_grouped(unsigned long long value);
/* The same for a count held as a double (read back from a report): below
 * 0 or NaN gives 0, past 2^64 saturates. */
numtext numfmt_grouped_count(double value);
/* num / den as a percentage, "n/a" when den is 0 (an undefined ratio). */
numtext numfmt_share(double num, double den);

#endif
