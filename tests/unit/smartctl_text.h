/*
 * What smartctl printed of an NVMe device's SMART / Health log (the
 * corpus's nvme/ files), and the 512-byte page (log 02h) built from it at
 * the places NVM Express Base Specification 2.0c section 5.16.1.3 gives
 * them: the tests' own reading of the specification, kept apart from the
 * decoder's, so that a decoder that misplaces a field fails them.
 */
#ifndef PMDA_DARWIN_SMARTCTL_TEXT_H
#define PMDA_DARWIN_SMARTCTL_TEXT_H

#include <stdint.h>

/* smartctl's labels (smartmontools f1d0da9ce8 src/nvmeprint.cpp:470-530)
 * and where each field is; the 128-bit counters from SMARTCTL_FIRST_COUNTER
 * on, in the page's order. */
struct smartctl_field {
    const char *label;
    unsigned int at, width;
};
extern const struct smartctl_field smartctl_fields[];
#define SMARTCTL_FIELDS 15
#define SMARTCTL_FIRST_COUNTER 5

/* The text of the corpus's file (the test is skipped without the corpus). */
const char *smartctl_read(const char *relative);

/* The text after "label:" in the text's lines, or NULL. */
const char *smartctl_after(const char *text, const char *label);

/* smartctl's number: hexadecimal after "0x", else decimal digits with the
 * locale's thousands separators (',' or ' ') between them. */
uint64_t smartctl_number(const char *p);
/* The same for the field label of text, which must be there. */
uint64_t smartctl_value(const char *text, const char *label);

/* The page built from the fields the text printed (a temperature in
 * Celsius back to kelvin, as smartctl converted it: nvmeprint.cpp:81-87);
 * returns which ones (bit per smartctl_fields entry). */
unsigned int smartctl_page(const char *text, unsigned char *page);

#endif
