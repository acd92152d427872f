// Loads libcurl with dlopen on first use and forwards the ccurl_ wrappers to it.
#include "ccurl_api.h"
#include "ccurl_shims.h"

#include <library_loader.h>
#include <pthread.h>

// MARK: - Loading, once

struct ccurl_api ccurl_api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct dr_loaded_library libcurl;  // RTLD_LOCAL: libcurl's TLS, Kerberos, LDAP … stay private

static void load_libcurl(void) {
    if (dr_library_open(&libcurl, CCURL_LIBCURL_SONAME) == NULL) return;
#define RESOLVE(name)                                                         \
    ccurl_api.name = (__typeof__(&name))dr_library_function(&libcurl, #name); \
    if (ccurl_api.name == NULL) return;
    CCURL_FUNCTIONS(RESOLVE)
#undef RESOLVE
    libcurl.loaded = 1;
}

int ccurl_ready(void) {
    pthread_once(&load_once, load_libcurl);
    return libcurl.loaded;
}

int ccurl_available(char *why, size_t len) {
    ccurl_ready();
    return dr_library_report(&libcurl, why, len);
}

int ccurl_probe_library(const char *soname, char *why, size_t len) { return dr_library_probe(soname, why, len); }

// MARK: - Wrappers
// Each forwards to libcurl when it is loaded; otherwise returns the given failure value.

#define FORWARD(fallback, name, ...) return ccurl_ready() ? ccurl_api.name(__VA_ARGS__) : (fallback)
#define FORWARD_VOID(name, ...) \
    if (ccurl_ready()) ccurl_api.name(__VA_ARGS__)

static const char not_loaded[] = "libcurl (" CCURL_LIBCURL_SONAME ") is not loaded";

int ccurl_global_init(void) { FORWARD((int)CURLE_FAILED_INIT, curl_global_init, CURL_GLOBAL_DEFAULT); }

CURL *ccurl_easy_init(void) { FORWARD(NULL, curl_easy_init); }
void ccurl_easy_cleanup(CURL *easy) { FORWARD_VOID(curl_easy_cleanup, easy); }
const char *ccurl_easy_strerror(CURLcode code) { FORWARD(not_loaded, curl_easy_strerror, code); }
void ccurl_free(void *pointer) { FORWARD_VOID(curl_free, pointer); }

CURLM *ccurl_multi_init(void) { FORWARD(NULL, curl_multi_init); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { FORWARD(CURLM_INTERNAL_ERROR, curl_multi_cleanup, multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy) {
    FORWARD(CURLM_INTERNAL_ERROR, curl_multi_add_handle, multi, easy);
}
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy) {
    FORWARD(CURLM_INTERNAL_ERROR, curl_multi_remove_handle, multi, easy);
}
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) {
    FORWARD(CURLM_INTERNAL_ERROR, curl_multi_perform, multi, running);
}
CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready) {
    FORWARD(CURLM_INTERNAL_ERROR, curl_multi_poll, multi, extra, count, timeout_ms, ready);
}
CURLMcode ccurl_multi_wakeup(CURLM *multi) { FORWARD(CURLM_INTERNAL_ERROR, curl_multi_wakeup, multi); }
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left) { FORWARD(NULL, curl_multi_info_read, multi, left); }
const char *ccurl_multi_strerror(CURLMcode code) { FORWARD(not_loaded, curl_multi_strerror, code); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    FORWARD(NULL, curl_slist_append, list, line);
}
void ccurl_slist_free_all(struct curl_slist *list) { FORWARD_VOID(curl_slist_free_all, list); }

CURLU *ccurl_url(void) { FORWARD(NULL, curl_url); }
void ccurl_url_cleanup(CURLU *url) { FORWARD_VOID(curl_url_cleanup, url); }
CURLUcode ccurl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) {
    FORWARD(CURLUE_OUT_OF_MEMORY, curl_url_set, url, part, text, flags);
}
CURLUcode ccurl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags) {
    FORWARD(CURLUE_OUT_OF_MEMORY, curl_url_get, url, part, text, flags);
}
const char *ccurl_url_strerror(CURLUcode code) { FORWARD(not_loaded, curl_url_strerror, code); }
