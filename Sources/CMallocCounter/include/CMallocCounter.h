#ifndef CMALLOC_COUNTER_H
#define CMALLOC_COUNTER_H

/// Starts counting the heap allocations of the calling thread (malloc, calloc, realloc and
/// the aligned forms), from zero.
void th_malloc_count_begin(void);

/// Stops counting on the calling thread and returns how many allocations it saw.
long th_malloc_count_end(void);

#endif
