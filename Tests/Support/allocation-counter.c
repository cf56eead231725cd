// A preloadable library that counts heap allocations, for the test that proves a steady-state
// frame allocates nothing: LD_PRELOAD=liballocation-counter.so sheen bench ... The counted
// program finds `sheen_allocation_count` with dlsym; the real allocator is glibc's.
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic unsigned long long allocations;

unsigned long long sheen_allocation_count(void) { return atomic_load(&allocations); }

void *malloc(size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_malloc(n);
}

void *calloc(size_t n, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  void *p = __libc_memalign(alignment, n);
  if (!p) return 12;
  *out = p;
  return 0;
}

void *aligned_alloc(size_t alignment, size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_memalign(alignment, n);
}

void free(void *p) { __libc_free(p); }
