// Private to the shim: which libgpiod we compile against, and the two structs behind the
// opaque handles of CLinuxHardware.h.
#ifndef CLINUXHARDWARE_INTERNAL_H
#define CLINUXHARDWARE_INTERNAL_H

// SwiftPM compiles every C target of the root package on a plain `swift build` or `swift test`,
// even one that is only a trait-conditional dependency (the trait drops the edge, not the
// target), and it passes no trait define to C. So on a machine without libgpiod-dev the shim
// compiles to nothing, and only a build with the Hardware trait fails: CLinuxHardware.h then
// marks the API unavailable, so Swift stops at the first call with "needs libgpiod-dev".
#if __has_include(<gpiod.h>)
#define TH_HAVE_GPIOD 1
#include <gpiod.h>
#include <stdbool.h>

#include "CLinuxHardware.h"

// libgpiod 1.x declares every public symbol with GPIOD_API; 2.0 dropped the macro together with
// the v1 API (libgpiod NEWS, "v2.0"). Nothing else in the headers tells the two apart reliably.
#ifdef GPIOD_API
#define TH_GPIOD_V1 1
#else
#define TH_GPIOD_V2 1
#endif

struct th_gpio_chip {
    struct gpiod_chip *lib;
    unsigned int num_lines;
};

struct th_gpio_request {
    size_t count;
    unsigned int offsets[TH_GPIO_MAX_LINES];
    // What the kernel reported for the first line after the request (v2 only; 0 on v1).
    unsigned long debounce_us;
#ifdef TH_GPIOD_V1
    // v1 requests each line with its own GPIO_GET_LINEEVENT_IOCTL, so each has its own event
    // descriptor and its own kernel FIFO. A batch read from one descriptor can hold more than
    // the caller has room for: the rest waits here, oldest first, for the next call.
    struct gpiod_line_bulk bulk;
    int fds[TH_GPIO_MAX_LINES];
    size_t next_line;
    th_gpio_edge pending[TH_GPIO_V1_EVENT_BATCH];
    size_t pending_head, pending_count;
#else
    struct gpiod_line_request *lib;
    struct gpiod_edge_event_buffer *buffer;
    size_t buffer_capacity;
#endif
};

// Runs `expr`, keeping errno as it was before: for clean-up on an error path.
#define TH_PRESERVING_ERRNO(expr) do { int saved_ = errno; expr; errno = saved_; } while (0)

#endif  // __has_include(<gpiod.h>)

#endif
