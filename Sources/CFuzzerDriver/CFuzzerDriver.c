// Only the header matters: it declares libFuzzer's driver for Swift. A C
// target needs one source file.
#include "CFuzzerDriver.h"
