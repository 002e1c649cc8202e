// The few Core Foundation functions TickSystem's CollatedTexts calls, and
// the constants it passes them. Core Foundation is Foundation's own layer,
// linked with it on every platform; its own headers are not imported
// because, on Linux, they bring their own copy of the C library's
// declarations (`struct stat` among them), and a module that sees both
// loses the members TickSystem gives `stat`. Objects are opaque pointers
// here; each one created or retained is released with CFRelease.
#ifndef TICK_CCOREFOUNDATION_H
#define TICK_CCOREFOUNDATION_H

#include <stdint.h>

// CFRange: a location and a length, both CFIndex (a signed long).
typedef struct {
    long location;
    long length;
} TickCFRange;

enum {
    TickCFStringEncodingUTF8 = 0x08000100,
    TickCFCompareCaseInsensitive = 1,
    TickCFCompareNonliteral = 16,
};

// A null allocator is the default allocator.
const void *CFStringCreateWithBytes(const void *allocator, const uint8_t *bytes, long count, uint32_t encoding,
                                    uint8_t isExternalRepresentation);
const void *CFLocaleCreate(const void *allocator, const void *identifier);
long CFStringGetLength(const void *string);
// Less than, equal to or greater than: -1, 0 or 1.
long CFStringCompareWithOptionsAndLocale(const void *left, const void *right, TickCFRange range, unsigned long options,
                                         const void *locale);
const void *CFRetain(const void *object);
void CFRelease(const void *object);

#endif
