// The libmemcached API as Darkroom uses it, loaded on first use. Imported by DarkroomMemcached only.
//
// This target does not link libmemcached: each `dr_` function below resolves its symbol from
// `dlopen("libmemcached.so.11")` (the pool from `libmemcachedutil.so.2`) the first time any of
// them is called, so a program that never configures a memcached layer runs without the
// library installed. The headers are included for their types only.
//
// Callers check ``darkroom_memcached_available`` first; when the library could not be loaded
// every wrapper returns NULL or MEMCACHED_FAILURE instead of crashing.
#ifndef DARKROOM_CMEMCACHED_H
#define DARKROOM_CMEMCACHED_H

#include <libmemcached-1.0/memcached.h>
#include <libmemcachedutil-1.0/pool.h>
#include <stddef.h>
#include <stdint.h>

/// Loads libmemcached and libmemcachedutil on the first call. Returns 1 when every function
/// below is available; otherwise 0 with the reason in `why` (may be NULL).
int darkroom_memcached_available(char *why, size_t len);

memcached_st *dr_memcached_create(void);
void dr_memcached_free(memcached_st *memc);
memcached_return_t dr_memcached_server_add(memcached_st *memc, const char *host, in_port_t port);
memcached_return_t dr_memcached_behavior_set(memcached_st *memc, memcached_behavior_t flag, uint64_t value);
const char *dr_memcached_strerror(const memcached_st *memc, memcached_return_t rc);

/// The value (malloc'd: release it with `free`) or NULL with `rc` MEMCACHED_NOTFOUND or an error.
char *dr_memcached_get(memcached_st *memc, const char *key, size_t key_length, size_t *value_length,
                       uint32_t *flags, memcached_return_t *rc);
memcached_return_t dr_memcached_set(memcached_st *memc, const char *key, size_t key_length, const char *value,
                                    size_t value_length, time_t expiration, uint32_t flags);
/// Stores only when the key is absent (MEMCACHED_NOTSTORED otherwise): leases.
memcached_return_t dr_memcached_add(memcached_st *memc, const char *key, size_t key_length, const char *value,
                                    size_t value_length, time_t expiration, uint32_t flags);
memcached_return_t dr_memcached_delete(memcached_st *memc, const char *key, size_t key_length);
/// Gets `count` keys with one request per server (memcached_mget). Each found key's value is
/// put in `values[i]` (malloc'd: release it with `free`), a missing one leaves NULL. Any error
/// (a server down, a timeout) is returned, with every value NULL.
memcached_return_t dr_memcached_get_many(memcached_st *memc, const char *const *keys, const size_t *key_lengths,
                                         size_t count, char **values, size_t *value_lengths);
/// Adds one to the counter `key`, creating it at `initial` (never expiring) when absent.
memcached_return_t dr_memcached_increment(memcached_st *memc, const char *key, size_t key_length, uint64_t initial,
                                          uint64_t *value);

/// A pool of `max` clones of `memc` (which the pool owns from then on).
memcached_pool_st *dr_memcached_pool_create(memcached_st *memc, uint32_t initial, uint32_t max);
/// A connection from the pool, waiting at most `timeout_ms` for one to be free; NULL on timeout.
memcached_st *dr_memcached_pool_fetch(memcached_pool_st *pool, long timeout_ms, memcached_return_t *rc);
memcached_return_t dr_memcached_pool_release(memcached_pool_st *pool, memcached_st *memc);
/// Destroys the pool; returns the original `memc` (free it with dr_memcached_free).
memcached_st *dr_memcached_pool_destroy(memcached_pool_st *pool);

#endif
