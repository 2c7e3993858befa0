// Requesting input lines with both-edge detection, reading their edges and levels, with
// libgpiod 1.6 (one GPIO_GET_LINEEVENT_IOCTL and one event descriptor per line) or 2.x (one
// GPIO_V2_GET_LINE_IOCTL request and one descriptor for all lines).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#ifdef TH_HAVE_GPIOD  // see internal.h

/// The loop polls and then drains, so a read must never block: libgpiod's reads block on an
/// empty FIFO unless the descriptor is O_NONBLOCK, in which case read(2) fails with EAGAIN.
static int set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static bool has_duplicates(const unsigned int *offsets, size_t count) {
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            if (offsets[i] == offsets[j]) return true;
    return false;
}

th_gpio_request *th_gpio_request_inputs(th_gpio_chip *chip, const unsigned int *offsets,
                                        size_t count, th_gpio_bias bias, unsigned long debounce_us,
                                        const char *consumer) {
    int bias_value = th_gpio_bias_library_value(bias);
    if (count == 0 || count > TH_GPIO_MAX_LINES || bias_value < 0) {
        errno = EINVAL;
        return NULL;
    }
    // A line asked for twice is a line already in use: v1 and the kernel say EBUSY, while v2's
    // line config would silently merge the two and shift every index after them.
    if (has_duplicates(offsets, count)) {
        errno = EBUSY;
        return NULL;
    }
    th_gpio_request *req = calloc(1, sizeof(*req));
    if (!req) return NULL;
    req->count = count;
    memcpy(req->offsets, offsets, count * sizeof(*offsets));

#ifdef TH_GPIOD_V1
    (void)debounce_us;  // no debounce in uAPI v1: the caller debounces in software
    gpiod_line_bulk_init(&req->bulk);
    // Offsets past the end fail here with EINVAL (gpiod_chip_get_line).
    if (gpiod_chip_get_lines(chip->lib, req->offsets, (unsigned int)count, &req->bulk) < 0 ||
        gpiod_line_request_bulk_both_edges_events_flags(&req->bulk, consumer, bias_value) < 0) {
        TH_PRESERVING_ERRNO(free(req));
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        req->fds[i] = gpiod_line_event_get_fd(gpiod_line_bulk_get_line(&req->bulk, (unsigned int)i));
        if (req->fds[i] < 0 || set_nonblocking(req->fds[i]) < 0) {
            TH_PRESERVING_ERRNO(th_gpio_request_release(req));
            return NULL;
        }
    }
    return req;
#else
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *line_cfg = gpiod_line_config_new();
    struct gpiod_request_config *req_cfg = gpiod_request_config_new();
    // The kernel keeps 16 events per line by default; a user-space buffer as large lets one
    // read drain it. The event clock stays at its default, CLOCK_MONOTONIC.
    req->buffer_capacity = 16 * count;
    req->buffer = gpiod_edge_event_buffer_new(req->buffer_capacity);
    if (!settings || !line_cfg || !req_cfg || !req->buffer ||
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0 ||
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) < 0 ||
        gpiod_line_settings_set_bias(settings, (enum gpiod_line_bias)bias_value) < 0) {
        goto fail;
    }
    // Part of the request: the kernel cannot change the period while edge detection is on.
    gpiod_line_settings_set_debounce_period_us(settings, debounce_us);
    if (gpiod_line_config_add_line_settings(line_cfg, req->offsets, count, settings) < 0) goto fail;
    gpiod_request_config_set_consumer(req_cfg, consumer);
    req->lib = gpiod_chip_request_lines(chip->lib, req_cfg, line_cfg);
    if (!req->lib || set_nonblocking(gpiod_line_request_get_fd(req->lib)) < 0) goto fail;
    if (debounce_us > 0) {
        // Ask the kernel what it applied rather than trusting the request: 0 means debounce
        // in software after all.
        struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->lib, req->offsets[0]);
        if (info) {
            req->debounce_us = gpiod_line_info_get_debounce_period_us(info);
            gpiod_line_info_free(info);
        }
    }
    gpiod_line_settings_free(settings);
    gpiod_line_config_free(line_cfg);
    gpiod_request_config_free(req_cfg);
    return req;
fail:
    TH_PRESERVING_ERRNO({
        gpiod_line_settings_free(settings);
        gpiod_line_config_free(line_cfg);
        gpiod_request_config_free(req_cfg);
        th_gpio_request_release(req);
    });
    return NULL;
#endif
}

unsigned long th_gpio_request_debounce_us(const th_gpio_request *request) {
    return request->debounce_us;
}

int th_gpio_request_fd_count(const th_gpio_request *request) {
#ifdef TH_GPIOD_V1
    return (int)request->count;
#else
    (void)request;
    return 1;
#endif
}

int th_gpio_request_fd(const th_gpio_request *request, int index) {
#ifdef TH_GPIOD_V1
    return request->fds[index];
#else
    (void)index;
    return gpiod_line_request_get_fd(request->lib);
#endif
}

/// Stable insertion sort by timestamp: n is at most a few dozen, and this allocates nothing.
static void sort_by_time(th_gpio_edge *edges, size_t n) {
    for (size_t i = 1; i < n; i++) {
        th_gpio_edge e = edges[i];
        size_t j = i;
        for (; j > 0 && edges[j - 1].timestamp_ns > e.timestamp_ns; j--) edges[j] = edges[j - 1];
        edges[j] = e;
    }
}

ssize_t th_gpio_v1_read_event_fd(int fd, uint32_t line, th_gpio_edge *edges, size_t capacity) {
#ifdef TH_GPIOD_V1
    if (capacity < TH_GPIO_V1_EVENT_BATCH) {
        errno = EINVAL;
        return -1;
    }
    struct gpiod_line_event events[TH_GPIO_V1_EVENT_BATCH];
    int n = gpiod_line_event_read_fd_multiple(fd, events, TH_GPIO_V1_EVENT_BATCH);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    for (int i = 0; i < n; i++) {
        edges[i].line = line;
        edges[i].type = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE ? TH_GPIO_EDGE_RISING
                                                                             : TH_GPIO_EDGE_FALLING;
        edges[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000u + (uint64_t)events[i].ts.tv_nsec;
    }
    return n;
#else
    (void)fd, (void)line, (void)edges, (void)capacity;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

ssize_t th_gpio_request_read_edges(th_gpio_request *req, th_gpio_edge *edges, size_t capacity) {
    size_t n = 0;
#ifdef TH_GPIOD_V1
    // Leftovers of the last batch first: they are older than anything still in the kernel.
    for (; n < capacity && req->pending_count > 0; n++, req->pending_count--)
        edges[n] = req->pending[req->pending_head++];
    if (req->pending_count > 0) return (ssize_t)n;
    req->pending_head = 0;
    // Round-robin over the lines so a chattering line cannot starve the others.
    for (size_t visited = 0; visited < req->count && n < capacity; visited++) {
        size_t line = req->next_line;
        req->next_line = (req->next_line + 1) % req->count;
        th_gpio_edge batch[TH_GPIO_V1_EVENT_BATCH];
        ssize_t got = th_gpio_v1_read_event_fd(req->fds[line], (uint32_t)line, batch, TH_GPIO_V1_EVENT_BATCH);
        if (got < 0) {
            if (n > 0) break;  // deliver what we have; the error shows again on the next call
            return -1;
        }
        size_t take = (size_t)got < capacity - n ? (size_t)got : capacity - n;
        memcpy(edges + n, batch, take * sizeof(*batch));
        n += take;
        memcpy(req->pending, batch + take, ((size_t)got - take) * sizeof(*batch));
        req->pending_count = (size_t)got - take;
    }
#else
    size_t want = capacity < req->buffer_capacity ? capacity : req->buffer_capacity;
    int got = gpiod_line_request_read_edge_events(req->lib, req->buffer, want);
    if (got < 0) return errno == EAGAIN ? 0 : -1;
    for (; n < (size_t)got; n++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(req->buffer, n);
        unsigned int offset = gpiod_edge_event_get_line_offset(event);
        uint32_t line = 0;
        while (line < req->count && req->offsets[line] != offset) line++;
        edges[n].line = line;
        edges[n].type = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE
                            ? TH_GPIO_EDGE_RISING : TH_GPIO_EDGE_FALLING;
        edges[n].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    }
#endif
    sort_by_time(edges, n);
    return (ssize_t)n;
}

int th_gpio_request_get_values(th_gpio_request *req, uint32_t *mask) {
    uint32_t bits = 0;
#ifdef TH_GPIOD_V1
    int values[TH_GPIO_MAX_LINES];
    if (gpiod_line_get_value_bulk(&req->bulk, values) < 0) return -1;
#else
    enum gpiod_line_value values[TH_GPIO_MAX_LINES];
    if (gpiod_line_request_get_values_subset(req->lib, req->count, req->offsets, values) < 0) return -1;
#endif
    for (size_t i = 0; i < req->count; i++)
        if (values[i] > 0) bits |= UINT32_C(1) << i;
    *mask = bits;
    return 0;
}

void th_gpio_request_release(th_gpio_request *req) {
    if (!req) return;
#ifdef TH_GPIOD_V1
    if (gpiod_line_bulk_num_lines(&req->bulk) > 0) gpiod_line_release_bulk(&req->bulk);
#else
    if (req->lib) gpiod_line_request_release(req->lib);
    if (req->buffer) gpiod_edge_event_buffer_free(req->buffer);
#endif
    free(req);
}

#endif  // TH_HAVE_GPIOD
