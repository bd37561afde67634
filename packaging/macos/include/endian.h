/* For the macOS build from Linux only: the Linux PCP host's config.h says it has
 * <endian.h>; on macOS the byte-order macros are in <machine/endian.h>. */
#include <machine/endian.h>
