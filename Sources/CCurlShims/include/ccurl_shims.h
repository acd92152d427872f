// Typed wrappers over libcurl's variadic functions (filled in by the HTTP source work).
#ifndef CCURL_SHIMS_H
#define CCURL_SHIMS_H
#include <curl/curl.h>
#endif
