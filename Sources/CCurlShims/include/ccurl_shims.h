// Typed wrappers over libcurl's variadic functions, the C callbacks of one transfer, and
// forwarders to a libcurl loaded on first use (nothing here links libcurl).
//
// Swift cannot call curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt (variadic), so
// each argument type gets a typed function here. The write, header and open-socket callbacks
// of a transfer live in C too: they append the body and headers to a ccurl_transfer, enforce
// the byte cap (returning 0 stops the transfer at once) and refuse private addresses.
// Nothing here prints.
#ifndef CCURL_SHIMS_H
#define CCURL_SHIMS_H
#include <curl/curl.h>
#include <stddef.h>

// MARK: - Loading
// CCurlShims does not link libcurl: it is loaded with dlopen(CCURL_LIBCURL_SONAME) the first
// time any function below is called. When it cannot be loaded the wrappers return a failure
// (NULL, CURLE_FAILED_INIT, CURLM_INTERNAL_ERROR, CURLUE_OUT_OF_MEMORY) instead of crashing.

/// The shared library the wrappers load.
#define CCURL_LIBCURL_SONAME "libcurl.so.4"

/// Loads libcurl on the first call (later calls return the same answer at once). Returns 1 when
/// every function is available; otherwise 0, with the reason written to `why` (NUL-terminated,
/// truncated to `len`; `why` may be NULL).
int ccurl_available(char *why, size_t len);

/// Tries `dlopen(soname)` (then closes it again) and reports why it failed, as
/// ``ccurl_available`` does. For tests of the failure message; returns 1 when it loads.
int ccurl_probe_library(const char *soname, char *why, size_t len);

// MARK: - libcurl, forwarded

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *easy);
const char *ccurl_easy_strerror(CURLcode code);
void ccurl_free(void *pointer);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *multi);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left);
const char *ccurl_multi_strerror(CURLMcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);
CURLU *ccurl_url(void);
void ccurl_url_cleanup(CURLU *url);
CURLUcode ccurl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags);
CURLUcode ccurl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags);
const char *ccurl_url_strerror(CURLUcode code);

// MARK: - Global

/// curl_global_init(CURL_GLOBAL_DEFAULT); returns the CURLcode.
int ccurl_global_init(void);

/// Names the calling thread (the event loop's) for `top -H`, `perf` and debuggers; only the
/// first 15 bytes of `name` are kept.
void ccurl_name_current_thread(const char *name);

// MARK: - Typed setopt / getinfo

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_off_t(CURL *easy, CURLoption option, long long value);
CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);
CURLcode ccurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, long long *value);
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// MARK: - One transfer's buffers and callbacks

/// What an address refused by the private-network rule is.
typedef enum {
    CCURL_ADDRESS_PUBLIC = 0,
    CCURL_ADDRESS_LOOPBACK = 1,
    CCURL_ADDRESS_LINK_LOCAL = 2,
    CCURL_ADDRESS_PRIVATE = 3,
    CCURL_ADDRESS_UNSPECIFIED = 4,
    CCURL_ADDRESS_SHARED = 5,      // carrier-grade NAT, 100.64.0.0/10
    CCURL_ADDRESS_MULTICAST = 6,   // 224.0.0.0/4, ff00::/8
    CCURL_ADDRESS_RESERVED = 7,    // 240.0.0.0/4, benchmarking, documentation, IETF, discard
    CCURL_ADDRESS_TRANSLATED = 8,  // IPv6 that reaches IPv4 through a translator: NAT64, 6to4, Teredo
} ccurl_address_kind;

typedef struct ccurl_transfer ccurl_transfer;

/// Allocates the buffers of one transfer and installs its callbacks (write, header, open
/// socket) and error buffer on `easy`. `max_bytes` caps the body; `allow_private` non-zero
/// lets connections to private, loopback and link-local addresses through. NULL when out of
/// memory.
ccurl_transfer *ccurl_transfer_create(CURL *easy, size_t max_bytes, int allow_private);

/// Frees the buffers (not the easy handle).
void ccurl_transfer_free(ccurl_transfer *transfer);

/// The body received so far.
const unsigned char *ccurl_transfer_body(const ccurl_transfer *transfer, size_t *length);

/// The header block of the last response (status line included), "\r\n"-separated.
const char *ccurl_transfer_headers(const ccurl_transfer *transfer, size_t *length);

/// Non-zero when the body passed `max_bytes` (the transfer was stopped).
int ccurl_transfer_exceeded(const ccurl_transfer *transfer);

/// libcurl's error text for the transfer ("" when none).
const char *ccurl_transfer_error(const ccurl_transfer *transfer);

/// The last address refused by the private-network rule ("" when none) and what it is.
const char *ccurl_transfer_refused_address(const ccurl_transfer *transfer, ccurl_address_kind *kind);

/// Judges a response's header block (status line first) when its first body byte arrives;
/// returns nonzero to refuse the body, which stops the transfer at once (CURLE_WRITE_ERROR).
typedef int (*ccurl_head_check)(void *context, const char *headers);

/// Sets the check the transfer's first body byte triggers (once per transfer); `context` must
/// outlive the transfer.
void ccurl_transfer_set_head_check(ccurl_transfer *transfer, ccurl_head_check check, void *context);

/// 1 when the head check refused the body (the transfer stopped before it arrived).
int ccurl_transfer_head_refused(const ccurl_transfer *transfer);

/// Classifies an IPv4 or IPv6 address in text form (for tests and messages); -1 if unparsable.
int ccurl_classify_address(const char *text);

#endif
