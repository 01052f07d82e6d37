// The CPU's cycle counter, for the tracer's timings: reading it costs about a third of a
// `clock_gettime(CLOCK_MONOTONIC)` call, and the tracer reads the time twice per action.
// Swift cannot emit these instructions itself; this header is the only C in Chronicle.
#ifndef CHRONICLE_TICKS_H
#define CHRONICLE_TICKS_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/// Whether `chronicle_ticks` reads a hardware counter on this architecture.
static inline int chronicle_ticks_available(void) {
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
  return 1;
#else
  return 0;
#endif
}

/// The CPU's invariant cycle counter (x86 TSC, ARM64 virtual counter); 0 elsewhere.
static inline uint64_t chronicle_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#elif defined(__aarch64__)
  uint64_t value;
  __asm__ volatile("mrs %0, cntvct_el0" : "=r"(value));
  return value;
#else
  return 0;
#endif
}

#endif
