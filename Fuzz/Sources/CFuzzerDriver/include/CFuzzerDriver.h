// libFuzzer's driver, for executables that have a main of their own (SwiftPM's executables do):
// it parses libFuzzer's command line and calls `callback` with each input. Linked from the
// toolchain's libFuzzer by -sanitize=fuzzer.
#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
