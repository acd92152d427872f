// libcurl's functions as loaded by ccurl_loader.c (private to this target).
#ifndef CCURL_API_H
#define CCURL_API_H
#include <curl/curl.h>

// X(name): one libcurl function. `__typeof__(&name)` names the prototype's type without
// referencing the symbol, so nothing here links against libcurl.
#define CCURL_FUNCTIONS(X)                                                                         \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt)                 \
    X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_free) X(curl_multi_init)                     \
    X(curl_multi_cleanup) X(curl_multi_setopt) X(curl_multi_add_handle) X(curl_multi_remove_handle) \
    X(curl_multi_perform) X(curl_multi_poll) X(curl_multi_wakeup) X(curl_multi_info_read)          \
    X(curl_multi_strerror) X(curl_slist_append) X(curl_slist_free_all) X(curl_url)                 \
    X(curl_url_cleanup) X(curl_url_set) X(curl_url_get) X(curl_url_strerror)

#define CCURL_DECLARE_POINTER(name) __typeof__(&name) name;
struct ccurl_api {
    CCURL_FUNCTIONS(CCURL_DECLARE_POINTER)
};

/// The loaded functions; valid only after ccurl_ready() returned 1.
extern struct ccurl_api ccurl_api;

/// Loads libcurl on the first call; 1 when every function in ccurl_api is set.
int ccurl_ready(void);

#endif
