/* util/text.h: names read from files are text a terminal can show.
 *
 * Kernel names, SASS and source paths come from traces that anyone may have
 * written: a name holding an escape sequence would rewrite the user's
 * terminal when `info` prints it, and a name that is not UTF-8 cannot be
 * stored in a trace's JSON metadata at all.  Writers check with
 * ws_text_is_utf8(); readers and importers mend with ws_text_mend(). */
#ifndef WS_TEXT_H
#define WS_TEXT_H

/* Whether s is well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
int ws_text_is_utf8(const char *s);

/* In place, keeping the length: every byte of a malformed UTF-8 sequence,
 * and of a control character (C0, DEL, C1), becomes '?'.  Returns how
 * many bytes it replaced. */
unsigned long ws_text_mend(char *s);

#endif
