/* tests/xmlcheck.h: is a piece of text well-formed XML?
 *
 * The HTML report's SVGs must parse as XML (browsers are forgiving, other
 * SVG tools are not).  This checks the rules our writer could break: tags
 * balanced and properly nested, names well formed, attributes quoted and
 * not repeated, entities valid, one root element. */
#ifndef WS_TEST_XMLCHECK_H
#define WS_TEST_XMLCHECK_H

#include <stddef.h>

/* 0 when text[0..len) is one well-formed element (whitespace around it
 * allowed); else -1 with "offset N: problem" in msg. */
int xml_check(const char *text, size_t len, char *msg, size_t msg_size);

#endif
