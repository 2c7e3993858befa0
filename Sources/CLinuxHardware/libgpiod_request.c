// libgpiod 2 loaded at run time (see include/CLinuxHardwareLibgpiod.h): requesting input lines
// and reading their edges and levels, with the uAPI half's meaning (gpio_request.c).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "libgpiod_abi.h"

static unsigned int gpiod_bias(th_gpio_bias bias) {
    switch (bias) {
    case TH_GPIO_BIAS_DISABLED: return TH_GPIOD_LINE_BIAS_DISABLED;
    case TH_GPIO_BIAS_PULL_UP: return TH_GPIOD_LINE_BIAS_PULL_UP;
    case TH_GPIO_BIAS_PULL_DOWN: return TH_GPIOD_LINE_BIAS_PULL_DOWN;
    default: return TH_GPIOD_LINE_BIAS_AS_IS;  // "don't change the bias setting"
    }
}

/// The line settings, line config and request config of one request (libgpiod's three
/// objects), made and freed together.
struct configs {
    struct gpiod_line_settings *settings;
    struct gpiod_line_config *lines;
    struct gpiod_request_config *request;
};

static void free_configs(const th_gpiod_library *l, struct configs *c) {
    // libgpiod's *_free accept NULL.
    l->line_settings_free(c->settings);
    l->line_config_free(c->lines);
    l->request_config_free(c->request);
}

static int make_configs(const th_gpiod_library *l, struct configs *c, const unsigned int *offsets, size_t count,
                        th_gpio_bias bias, uint32_t debounce_us, const char *consumer) {
    memset(c, 0, sizeof(*c));
    c->settings = l->line_settings_new();
    c->lines = l->line_config_new();
    c->request = l->request_config_new();
    if (!c->settings || !c->lines || !c->request) return -1;
    // Edge detection needs an input; the kernel stamps on CLOCK_MONOTONIC by default, said here
    // anyway because the Swift side compares the stamps with its own CLOCK_MONOTONIC.
    if (l->line_settings_set_direction(c->settings, TH_GPIOD_LINE_DIRECTION_INPUT) < 0 ||
        l->line_settings_set_edge_detection(c->settings, TH_GPIOD_LINE_EDGE_BOTH) < 0 ||
        l->line_settings_set_bias(c->settings, gpiod_bias(bias)) < 0 ||
        l->line_settings_set_event_clock(c->settings, TH_GPIOD_LINE_CLOCK_MONOTONIC) < 0)
        return -1;
    if (debounce_us > 0) l->line_settings_set_debounce_period_us(c->settings, debounce_us);
    // One settings object for all the lines: one GPIO_V2_GET_LINE_IOCTL, one descriptor. The
    // request config's event buffer size stays 0: the kernel's default of 16 events per line, as
    // on the uAPI path. The consumer is truncated to what the kernel keeps.
    if (l->line_config_add_line_settings(c->lines, offsets, count, c->settings) < 0) return -1;
    if (consumer) l->request_config_set_consumer(c->request, consumer);
    return 0;
}

/// The smallest debounce period over the lines as the kernel reports it in their info, 0 if a
/// line has none or its info cannot be read (the caller then debounces in software).
static uint32_t applied_debounce(th_gpiod_chip *chip, const unsigned int *offsets, size_t count) {
    const th_gpiod_library *l = chip->library;
    unsigned long smallest = UINT32_MAX;
    for (size_t i = 0; i < count; i++) {
        struct gpiod_line_info *info = l->chip_get_line_info(chip->chip, offsets[i]);
        if (!info) return 0;
        unsigned long period = l->line_info_get_debounce_period_us(info);
        l->line_info_free(info);
        if (period < smallest) smallest = period;
    }
    return (uint32_t)smallest;
}

th_gpiod_request *th_gpiod_request_inputs(th_gpiod_chip *chip, const unsigned int *offsets, size_t count,
                                          th_gpio_bias bias, uint32_t debounce_us, const char *consumer) {
    if (th_gpio_check_lines(offsets, count, bias) < 0) return NULL;
    const th_gpiod_library *l = chip->library;
    // Everything that can fail for want of memory is made before the lines are taken.
    th_gpiod_request *request = calloc(1, sizeof(*request));
    if (!request) return NULL;
    request->library = l;
    request->count = count;
    memcpy(request->offsets, offsets, count * sizeof(*offsets));
    request->events = l->edge_event_buffer_new(TH_GPIO_READ_BATCH);
    struct configs configs = {0};
    if (!request->events || make_configs(l, &configs, offsets, count, bias, debounce_us, consumer) < 0) {
        TH_PRESERVING_ERRNO(free_configs(l, &configs); th_gpiod_request_release(request));
        return NULL;
    }
    request->request = l->chip_request_lines(chip->chip, configs.request, configs.lines);
    TH_PRESERVING_ERRNO(free_configs(l, &configs));
    if (!request->request) {
        TH_PRESERVING_ERRNO(th_gpiod_request_release(request));
        return NULL;
    }
    // libgpiod's read_edge_events blocks on an empty queue ("This function will block if no event
    // was queued"): the descriptor is the kernel's O_RDONLY | O_CLOEXEC one, made non-blocking
    // here, so that the read returns -1 + EAGAIN instead, as the uAPI half's does.
    request->fd = l->line_request_get_fd(request->request);
    int flags = fcntl(request->fd, F_GETFL);
    if (flags < 0 || fcntl(request->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        TH_PRESERVING_ERRNO(th_gpiod_request_release(request));
        return NULL;
    }
    if (debounce_us > 0) request->debounce_us = applied_debounce(chip, offsets, count);
    return request;
}

uint32_t th_gpiod_request_debounce_us(const th_gpiod_request *request) { return request->debounce_us; }

int th_gpiod_request_fd(const th_gpiod_request *request) { return request->fd; }

ssize_t th_gpiod_request_read_edges(th_gpiod_request *request, th_gpio_edge *edges, size_t capacity) {
    const th_gpiod_library *l = request->library;
    size_t want = capacity < TH_GPIO_READ_BATCH ? capacity : TH_GPIO_READ_BATCH;
    if (want == 0) return 0;
    int got = l->line_request_read_edge_events(request->request, request->events, want);
    if (got < 0) return errno == EAGAIN ? 0 : -1;
    for (int i = 0; i < got; i++) {
        struct gpiod_edge_event *event = l->edge_event_buffer_get_event(request->events, (unsigned long)i);
        if (!event) return -1;  // EINVAL from libgpiod: an index past what it read, never expected
        unsigned int offset = l->edge_event_get_line_offset(event);
        unsigned int type = l->edge_event_get_event_type(event);
        uint32_t line = 0;
        while (line < request->count && request->offsets[line] != offset) line++;
        // libgpiod maps any record that is not a rising edge to a falling one; the uAPI half
        // refuses unknown ids, which the kernel never sends.
        if (line == request->count ||
            (type != TH_GPIOD_EDGE_EVENT_RISING_EDGE && type != TH_GPIOD_EDGE_EVENT_FALLING_EDGE)) {
            errno = EIO;
            return -1;
        }
        edges[i].line = line;
        edges[i].type = type == TH_GPIOD_EDGE_EVENT_RISING_EDGE ? TH_GPIO_EDGE_RISING : TH_GPIO_EDGE_FALLING;
        edges[i].timestamp_ns = l->edge_event_get_timestamp_ns(event);
        // The kernel's numbers are u32 (struct gpio_v2_line_event); libgpiod widens them to long.
        edges[i].seqno = (uint32_t)l->edge_event_get_global_seqno(event);
        edges[i].line_seqno = (uint32_t)l->edge_event_get_line_seqno(event);
    }
    return got;
}

int th_gpiod_request_get_values(th_gpiod_request *request, uint32_t *mask) {
    // By the request's own offsets, so value i is line i by construction (get_values, without
    // _subset, orders by the library's copy of the offsets).
    int values[TH_GPIO_MAX_LINES];
    if (request->library->line_request_get_values_subset(request->request, request->count, request->offsets,
                                                         values) < 0)
        return -1;
    uint32_t bits = 0;
    for (size_t i = 0; i < request->count; i++)
        if (values[i] > 0) bits |= UINT32_C(1) << i;
    *mask = bits;
    return 0;
}

void th_gpiod_request_release(th_gpiod_request *request) {
    if (!request) return;
    if (request->request) request->library->line_request_release(request->request);
    request->library->edge_event_buffer_free(request->events);
    free(request);
}
