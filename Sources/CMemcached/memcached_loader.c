// Loads libmemcached with dlopen on first use and forwards each dr_ wrapper to it (see CMemcached.h).
#include "CMemcached.h"

#include <library_loader.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// MARK: - The functions Darkroom calls

#define DARKROOM_MEMCACHED_FUNCTIONS(X)                                                          \
    X(memcached_create) X(memcached_free) X(memcached_server_add) X(memcached_behavior_set)      \
    X(memcached_strerror) X(memcached_get) X(memcached_set) X(memcached_add) X(memcached_delete)      \
    X(memcached_mget) X(memcached_fetch_result) X(memcached_result_create) X(memcached_result_free)   \
    X(memcached_result_key_value) X(memcached_result_key_length) X(memcached_result_value)       \
    X(memcached_result_length) X(memcached_increment_with_initial)

#define DARKROOM_MEMCACHEDUTIL_FUNCTIONS(X) \
    X(memcached_pool_create) X(memcached_pool_fetch) X(memcached_pool_release) X(memcached_pool_destroy)

#define DECLARE_POINTER(name) __typeof__(&name) name;
static struct {
    DARKROOM_MEMCACHED_FUNCTIONS(DECLARE_POINTER)
    DARKROOM_MEMCACHEDUTIL_FUNCTIONS(DECLARE_POINTER)
} api;

// MARK: - Loading, once

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct dr_loaded_library libmemcached;
static struct dr_loaded_library libmemcachedutil;

static void load_libraries(void) {
    if (dr_library_open(&libmemcached, "libmemcached.so.11") == NULL) return;
#define RESOLVE(name)                                                         \
    api.name = (__typeof__(&name))dr_library_function(&libmemcached, #name); \
    if (api.name == NULL) return;
    DARKROOM_MEMCACHED_FUNCTIONS(RESOLVE)
#undef RESOLVE
    if (dr_library_open(&libmemcachedutil, "libmemcachedutil.so.2") == NULL) {
        // Report the pool library's reason as the whole library's.
        for (size_t i = 0; i < sizeof libmemcached.error; i++) libmemcached.error[i] = libmemcachedutil.error[i];
        return;
    }
#define RESOLVE_UTIL(name)                                                        \
    api.name = (__typeof__(&name))dr_library_function(&libmemcachedutil, #name); \
    if (api.name == NULL) {                                                       \
        for (size_t i = 0; i < sizeof libmemcached.error; i++)                    \
            libmemcached.error[i] = libmemcachedutil.error[i];                    \
        return;                                                                   \
    }
    DARKROOM_MEMCACHEDUTIL_FUNCTIONS(RESOLVE_UTIL)
#undef RESOLVE_UTIL
    libmemcached.loaded = 1;
}

static int ready(void) {
    pthread_once(&load_once, load_libraries);
    return libmemcached.loaded;
}

int darkroom_memcached_available(char *why, size_t len) {
    ready();
    return dr_library_report(&libmemcached, why, len);
}

// MARK: - Wrappers

memcached_st *dr_memcached_create(void) { return ready() ? api.memcached_create(NULL) : NULL; }

void dr_memcached_free(memcached_st *memc) {
    if (ready() && memc != NULL) api.memcached_free(memc);
}

memcached_return_t dr_memcached_server_add(memcached_st *memc, const char *host, in_port_t port) {
    return ready() ? api.memcached_server_add(memc, host, port) : MEMCACHED_FAILURE;
}

memcached_return_t dr_memcached_behavior_set(memcached_st *memc, memcached_behavior_t flag, uint64_t value) {
    return ready() ? api.memcached_behavior_set(memc, flag, value) : MEMCACHED_FAILURE;
}

const char *dr_memcached_strerror(const memcached_st *memc, memcached_return_t rc) {
    return ready() ? api.memcached_strerror(memc, rc) : "libmemcached is not loaded";
}

char *dr_memcached_get(memcached_st *memc, const char *key, size_t key_length, size_t *value_length,
                       uint32_t *flags, memcached_return_t *rc) {
    if (!ready()) {
        *rc = MEMCACHED_FAILURE;
        return NULL;
    }
    return api.memcached_get(memc, key, key_length, value_length, flags, rc);
}

memcached_return_t dr_memcached_set(memcached_st *memc, const char *key, size_t key_length, const char *value,
                                    size_t value_length, time_t expiration, uint32_t flags) {
    return ready() ? api.memcached_set(memc, key, key_length, value, value_length, expiration, flags)
                   : MEMCACHED_FAILURE;
}

memcached_return_t dr_memcached_add(memcached_st *memc, const char *key, size_t key_length, const char *value,
                                    size_t value_length, time_t expiration, uint32_t flags) {
    return ready() ? api.memcached_add(memc, key, key_length, value, value_length, expiration, flags)
                   : MEMCACHED_FAILURE;
}

memcached_return_t dr_memcached_delete(memcached_st *memc, const char *key, size_t key_length) {
    return ready() ? api.memcached_delete(memc, key, key_length, 0) : MEMCACHED_FAILURE;
}

memcached_return_t dr_memcached_get_many(memcached_st *memc, const char *const *keys, const size_t *key_lengths,
                                         size_t count, char **values, size_t *value_lengths) {
    for (size_t i = 0; i < count; i++) {
        values[i] = NULL;
        value_lengths[i] = 0;
    }
    if (!ready()) return MEMCACHED_FAILURE;
    memcached_return_t rc = api.memcached_mget(memc, keys, key_lengths, count);
    if (rc != MEMCACHED_SUCCESS && rc != MEMCACHED_SOME_ERRORS) return rc;
    // On the caller's stack: memcached_fetch_result frees a result it finds heap-allocated
    // when the last value has been read, and only empties one that is not.
    memcached_result_st storage;
    memcached_result_st *result = api.memcached_result_create(memc, &storage);
    if (result == NULL) return MEMCACHED_MEMORY_ALLOCATION_FAILURE;
    memcached_return_t failure = MEMCACHED_SUCCESS;
    memcached_return_t fetched;
    while (api.memcached_fetch_result(memc, result, &fetched) != NULL) {
        const char *key = api.memcached_result_key_value(result);
        size_t key_length = api.memcached_result_key_length(result);
        for (size_t i = 0; i < count; i++) {
            if (values[i] != NULL || key_lengths[i] != key_length || memcmp(keys[i], key, key_length) != 0) continue;
            // Copied: the result's own buffer is reused for the next key.
            size_t length = api.memcached_result_length(result);
            values[i] = malloc(length > 0 ? length : 1);
            if (values[i] == NULL) {
                failure = MEMCACHED_MEMORY_ALLOCATION_FAILURE;
            } else {
                if (length > 0) memcpy(values[i], api.memcached_result_value(result), length);
                value_lengths[i] = length;
            }
            break;
        }
    }
    if (fetched != MEMCACHED_END && fetched != MEMCACHED_SUCCESS && fetched != MEMCACHED_NOTFOUND) failure = fetched;
    api.memcached_result_free(result);
    if (failure == MEMCACHED_SUCCESS && rc == MEMCACHED_SOME_ERRORS) failure = rc;
    if (failure != MEMCACHED_SUCCESS) {
        for (size_t i = 0; i < count; i++) {
            free(values[i]);
            values[i] = NULL;
        }
    }
    return failure;
}

memcached_return_t dr_memcached_increment(memcached_st *memc, const char *key, size_t key_length, uint64_t initial,
                                          uint64_t *value) {
    return ready() ? api.memcached_increment_with_initial(memc, key, key_length, 1, initial, 0, value)
                   : MEMCACHED_FAILURE;
}

memcached_pool_st *dr_memcached_pool_create(memcached_st *memc, uint32_t initial, uint32_t max) {
    return ready() ? api.memcached_pool_create(memc, initial, max) : NULL;
}

memcached_st *dr_memcached_pool_fetch(memcached_pool_st *pool, long timeout_ms, memcached_return_t *rc) {
    if (!ready()) {
        *rc = MEMCACHED_FAILURE;
        return NULL;
    }
    struct timespec wait = {.tv_sec = timeout_ms / 1000, .tv_nsec = (timeout_ms % 1000) * 1000000L};
    return api.memcached_pool_fetch(pool, &wait, rc);
}

memcached_return_t dr_memcached_pool_release(memcached_pool_st *pool, memcached_st *memc) {
    return ready() ? api.memcached_pool_release(pool, memc) : MEMCACHED_FAILURE;
}

memcached_st *dr_memcached_pool_destroy(memcached_pool_st *pool) {
    return ready() ? api.memcached_pool_destroy(pool) : NULL;
}
