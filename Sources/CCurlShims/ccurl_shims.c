#define _GNU_SOURCE
#include "ccurl_shims.h"
#include "ccurl_api.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// MARK: - Typed setopt / getinfo
// Called only with handles made by the loaded libcurl, so ccurl_api is set. The parentheses
// keep curl.h's type-checking macros of the same names from expanding.

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return (ccurl_api.curl_easy_setopt)(easy, option, value);
}

CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return (ccurl_api.curl_easy_setopt)(easy, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return (ccurl_api.curl_easy_setopt)(easy, option, value);
}

CURLcode ccurl_easy_setopt_off_t(CURL *easy, CURLoption option, long long value) {
    return (ccurl_api.curl_easy_setopt)(easy, option, (curl_off_t)value);
}

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return (ccurl_api.curl_easy_getinfo)(easy, info, value);
}

CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = (ccurl_api.curl_easy_getinfo)(easy, info, &text);
    *value = text;
    return code;
}

CURLcode ccurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, long long *value) {
    curl_off_t number = 0;
    CURLcode code = (ccurl_api.curl_easy_getinfo)(easy, info, &number);
    *value = (long long)number;
    return code;
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return (ccurl_api.curl_multi_setopt)(multi, option, value);
}

// MARK: - Growing buffers

typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} ccurl_buffer;

/// Appends; 0 when out of memory.
static int buffer_append(ccurl_buffer *buffer, const void *bytes, size_t count) {
    if (count == 0) return 1;
    if (buffer->length + count + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity < buffer->length + count + 1) capacity *= 2;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
    buffer->data[buffer->length] = 0;  // headers are read as a C string
    return 1;
}

// MARK: - Transfer

/// Headers beyond this are refused (a misbehaving server cannot grow them without bound).
#define CCURL_MAX_HEADER_BYTES (256 * 1024)

struct ccurl_transfer {
    ccurl_buffer body;
    ccurl_buffer headers;
    size_t max_bytes;
    int exceeded;
    int allow_private;
    ccurl_address_kind refused_kind;
    char refused_address[INET6_ADDRSTRLEN];
    char error[CURL_ERROR_SIZE];
    ccurl_head_check head_check;
    void *head_context;
    int head_checked;
    int head_refused;
};

static size_t write_body(char *data, size_t size, size_t count, void *userdata) {
    ccurl_transfer *transfer = userdata;
    size_t total = size * count;
    if (!transfer->head_checked && transfer->head_check) {
        // The headers are complete once the body starts: judge them before taking any of it.
        transfer->head_checked = 1;
        const char *headers = transfer->headers.data ? (const char *)transfer->headers.data : "";
        if (transfer->head_check(transfer->head_context, headers)) {
            transfer->head_refused = 1;
            return 0;  // stops the transfer: CURLE_WRITE_ERROR
        }
    }
    if (transfer->body.length + total > transfer->max_bytes) {
        transfer->exceeded = 1;
        return 0;  // stops the transfer: CURLE_WRITE_ERROR
    }
    return buffer_append(&transfer->body, data, total) ? total : 0;
}

static size_t write_header(char *data, size_t size, size_t count, void *userdata) {
    ccurl_transfer *transfer = userdata;
    size_t total = size * count;
    // A new status line starts a new response (1xx interim answers): keep only the last.
    if (total >= 5 && memcmp(data, "HTTP/", 5) == 0) transfer->headers.length = 0;
    if (transfer->headers.length + total > CCURL_MAX_HEADER_BYTES) return 0;
    return buffer_append(&transfer->headers, data, total) ? total : 0;
}

// MARK: - Private networks

static ccurl_address_kind classify_v4(const unsigned char *a) {
    if (a[0] == 127) return CCURL_ADDRESS_LOOPBACK;
    if (a[0] == 169 && a[1] == 254) return CCURL_ADDRESS_LINK_LOCAL;
    if (a[0] == 10) return CCURL_ADDRESS_PRIVATE;
    if (a[0] == 172 && (a[1] & 0xF0) == 16) return CCURL_ADDRESS_PRIVATE;
    if (a[0] == 192 && a[1] == 168) return CCURL_ADDRESS_PRIVATE;
    if (a[0] == 0) return CCURL_ADDRESS_UNSPECIFIED;
    if (a[0] == 100 && (a[1] & 0xC0) == 64) return CCURL_ADDRESS_SHARED;
    if ((a[0] & 0xF0) == 224) return CCURL_ADDRESS_MULTICAST;
    if ((a[0] & 0xF0) == 240) return CCURL_ADDRESS_RESERVED;          // 240/4 and the broadcast address
    if (a[0] == 198 && (a[1] & 0xFE) == 18) return CCURL_ADDRESS_RESERVED;  // benchmarking 198.18/15
    if (a[0] == 192 && a[1] == 0 && (a[2] == 0 || a[2] == 2)) return CCURL_ADDRESS_RESERVED;  // IETF, TEST-NET-1
    if (a[0] == 192 && a[1] == 88 && a[2] == 99) return CCURL_ADDRESS_RESERVED;   // 6to4 relay anycast
    if (a[0] == 198 && a[1] == 51 && a[2] == 100) return CCURL_ADDRESS_RESERVED;  // TEST-NET-2
    if (a[0] == 203 && a[1] == 0 && a[2] == 113) return CCURL_ADDRESS_RESERVED;   // TEST-NET-3
    return CCURL_ADDRESS_PUBLIC;
}

static ccurl_address_kind classify_v6(const unsigned char *a) {
    static const unsigned char zero[16] = {0};
    if (memcmp(a, zero, 15) == 0 && a[15] == 1) return CCURL_ADDRESS_LOOPBACK;
    if (memcmp(a, zero, 16) == 0) return CCURL_ADDRESS_UNSPECIFIED;
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return CCURL_ADDRESS_LINK_LOCAL;
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0) return CCURL_ADDRESS_PRIVATE;  // site-local fec0::/10
    if ((a[0] & 0xFE) == 0xFC) return CCURL_ADDRESS_PRIVATE;
    if (a[0] == 0xFF) return CCURL_ADDRESS_MULTICAST;
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses reach IPv4 hosts.
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    if (memcmp(a, mapped, 12) == 0 || memcmp(a, zero, 12) == 0) return classify_v4(a + 12);
    // Translators reach any IPv4 address, private ones included: NAT64 64:ff9b::/96 and its
    // local-use 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32.
    if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B) return CCURL_ADDRESS_TRANSLATED;
    if (a[0] == 0x20 && a[1] == 0x02) return CCURL_ADDRESS_TRANSLATED;
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00) return CCURL_ADDRESS_TRANSLATED;
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8) return CCURL_ADDRESS_RESERVED;  // documentation
    if (a[0] == 0x01 && a[1] == 0x00 && memcmp(a + 2, zero, 6) == 0) return CCURL_ADDRESS_RESERVED;  // discard 100::/64
    return CCURL_ADDRESS_PUBLIC;
}

int ccurl_classify_address(const char *text) {
    unsigned char bytes[16];
    if (inet_pton(AF_INET, text, bytes) == 1) return (int)classify_v4(bytes);
    if (inet_pton(AF_INET6, text, bytes) == 1) return (int)classify_v6(bytes);
    return -1;
}

/// Every connection curl opens (first request, redirects, retries, happy-eyeballs attempts)
/// passes here with its resolved address, so the rule cannot be dodged by DNS.
static curl_socket_t open_socket(void *userdata, curlsocktype purpose, struct curl_sockaddr *address) {
    ccurl_transfer *transfer = userdata;
    (void)purpose;
    if (!transfer->allow_private) {
        ccurl_address_kind kind = CCURL_ADDRESS_PUBLIC;
        if (address->family == AF_INET) {
            const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
            kind = classify_v4((const unsigned char *)&v4->sin_addr);
            if (kind != CCURL_ADDRESS_PUBLIC)
                inet_ntop(AF_INET, &v4->sin_addr, transfer->refused_address, sizeof transfer->refused_address);
        } else if (address->family == AF_INET6) {
            const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
            kind = classify_v6((const unsigned char *)&v6->sin6_addr);
            if (kind != CCURL_ADDRESS_PUBLIC)
                inet_ntop(AF_INET6, &v6->sin6_addr, transfer->refused_address, sizeof transfer->refused_address);
        }
        if (kind != CCURL_ADDRESS_PUBLIC) {
            transfer->refused_kind = kind;
            return CURL_SOCKET_BAD;
        }
    }
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

ccurl_transfer *ccurl_transfer_create(CURL *easy, size_t max_bytes, int allow_private) {
    ccurl_transfer *transfer = calloc(1, sizeof *transfer);
    if (!transfer) return NULL;
    transfer->max_bytes = max_bytes;
    transfer->allow_private = allow_private;
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_WRITEFUNCTION, write_body);
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_WRITEDATA, transfer);
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_HEADERFUNCTION, write_header);
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_HEADERDATA, transfer);
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_OPENSOCKETDATA, transfer);
    (ccurl_api.curl_easy_setopt)(easy, CURLOPT_ERRORBUFFER, transfer->error);
    return transfer;
}

void ccurl_transfer_free(ccurl_transfer *transfer) {
    if (!transfer) return;
    free(transfer->body.data);
    free(transfer->headers.data);
    free(transfer);
}

const unsigned char *ccurl_transfer_body(const ccurl_transfer *transfer, size_t *length) {
    *length = transfer->body.length;
    return transfer->body.data;
}

const char *ccurl_transfer_headers(const ccurl_transfer *transfer, size_t *length) {
    *length = transfer->headers.length;
    return transfer->headers.data ? (const char *)transfer->headers.data : "";
}

int ccurl_transfer_exceeded(const ccurl_transfer *transfer) { return transfer->exceeded; }

const char *ccurl_transfer_error(const ccurl_transfer *transfer) { return transfer->error; }

const char *ccurl_transfer_refused_address(const ccurl_transfer *transfer, ccurl_address_kind *kind) {
    *kind = transfer->refused_kind;
    return transfer->refused_address;
}

void ccurl_transfer_set_head_check(ccurl_transfer *transfer, ccurl_head_check check, void *context) {
    transfer->head_check = check;
    transfer->head_context = context;
}

int ccurl_transfer_head_refused(const ccurl_transfer *transfer) { return transfer->head_refused; }

// MARK: - Thread name

void ccurl_name_current_thread(const char *name) {
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = '\0';
    (void)pthread_setname_np(pthread_self(), kept);
}
