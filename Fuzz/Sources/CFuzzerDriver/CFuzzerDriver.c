// The declaration in include/CFuzzerDriver.h is all this target provides; libFuzzer defines it.
#include "CFuzzerDriver.h"
