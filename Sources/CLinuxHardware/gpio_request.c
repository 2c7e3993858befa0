// Requesting input lines with both-edge detection and reading their edges and levels, through
// the uAPI v2 ioctls (Documentation/userspace-api/gpio/gpio-v2-get-line-ioctl.rst,
// gpio-v2-line-event-read.rst, gpio-v2-line-get-values-ioctl.rst): one GPIO_V2_GET_LINE_IOCTL
// and one descriptor for all lines of a request.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

/// Bit i set for each of the first `count` lines: the uAPI's masks index the request's offsets.
static uint64_t all_lines(size_t count) {
    return count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
}

static bool has_duplicates(const unsigned int *offsets, size_t count) {
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            if (offsets[i] == offsets[j]) return true;
    return false;
}

int th_gpio_check_lines(const unsigned int *offsets, size_t count, th_gpio_bias bias) {
    if ((unsigned int)bias > TH_GPIO_BIAS_PULL_DOWN || count == 0 || count > TH_GPIO_MAX_LINES) {
        errno = EINVAL;
        return -1;
    }
    // The kernel requests the lines one by one and fails the second copy with EBUSY; saying so
    // here keeps that answer without a round trip, and a line never appears at two indices.
    if (has_duplicates(offsets, count)) {
        errno = EBUSY;
        return -1;
    }
    return 0;
}

int th_gpio_line_request_init(struct gpio_v2_line_request *request, const unsigned int *offsets,
                              size_t count, th_gpio_bias bias, uint32_t debounce_us,
                              const char *consumer) {
    if (th_gpio_check_lines(offsets, count, bias) < 0) return -1;
    uint64_t bias_flag = 0;  // TH_GPIO_BIAS_AS_IS: "the bias configuration is not changed"
    switch (bias) {
    case TH_GPIO_BIAS_DISABLED: bias_flag = GPIO_V2_LINE_FLAG_BIAS_DISABLED; break;
    case TH_GPIO_BIAS_PULL_UP: bias_flag = GPIO_V2_LINE_FLAG_BIAS_PULL_UP; break;
    case TH_GPIO_BIAS_PULL_DOWN: bias_flag = GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN; break;
    default: break;
    }
    // Every padding field must be zero (linereq_create and gpio_v2_line_config_validate refuse
    // anything else with EINVAL), and event_buffer_size 0 means the kernel's default of 16
    // events per line.
    memset(request, 0, sizeof(*request));
    for (size_t i = 0; i < count; i++) request->offsets[i] = offsets[i];
    request->num_lines = (uint32_t)count;
    // Edge detection needs INPUT, bias needs a direction (gpio-v2-get-line-ioctl.rst,
    // "Configuration Rules"). No clock flag: events carry CLOCK_MONOTONIC.
    request->config.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING |
                            GPIO_V2_LINE_FLAG_EDGE_FALLING | bias_flag;
    if (debounce_us > 0) {
        // Part of the request, so the edges are debounced from the first one: by the hardware
        // if it can, otherwise by the kernel in software (gpiolib-cdev.c, debounce_setup).
        struct gpio_v2_line_config_attribute *attr = &request->config.attrs[0];
        attr->attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
        attr->attr.debounce_period_us = debounce_us;
        attr->mask = all_lines(count);
        request->config.num_attrs = 1;
    }
    if (consumer) {
        // The kernel keeps sizeof(consumer) - 1 bytes (kstrndup); the array stays terminated.
        strncpy(request->consumer, consumer, sizeof(request->consumer) - 1);
    }
    return 0;
}

/// The debounce period the kernel applied, the smallest over the request's lines: the line
/// info carries a GPIO_V2_LINE_ATTR_ID_DEBOUNCE attribute only for a debounced line
/// (supinfo_to_lineinfo). 0 if any line has none or its info cannot be read: the caller then
/// debounces in software, which at worst repeats what the kernel did.
static uint32_t applied_debounce(int chip_fd, const unsigned int *offsets, size_t count) {
    uint32_t smallest = UINT32_MAX;
    struct gpio_v2_line_info info;
    for (size_t i = 0; i < count; i++) {
        if (th_gpio_line_info(chip_fd, offsets[i], &info) < 0) return 0;
        uint32_t period = 0;
        for (uint32_t a = 0; a < info.num_attrs && a < GPIO_V2_LINE_NUM_ATTRS_MAX; a++)
            if (info.attrs[a].id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE) period = info.attrs[a].debounce_period_us;
        if (period < smallest) smallest = period;
    }
    return smallest;
}

th_gpio_request *th_gpio_request_inputs(th_gpio_chip *chip, const unsigned int *offsets,
                                        size_t count, th_gpio_bias bias, uint32_t debounce_us,
                                        const char *consumer) {
    struct gpio_v2_line_request uapi;
    if (th_gpio_line_request_init(&uapi, offsets, count, bias, debounce_us, consumer) < 0) return NULL;
    // Allocated before the lines are taken, so that no failure after the ioctl can leave them held.
    th_gpio_request *request = calloc(1, sizeof(*request));
    if (!request) return NULL;
    if (ioctl(chip->fd, GPIO_V2_GET_LINE_IOCTL, &uapi) < 0) {
        TH_PRESERVING_ERRNO(free(request));
        return NULL;
    }
    request->fd = uapi.fd;
    request->count = count;
    memcpy(request->offsets, offsets, count * sizeof(*offsets));
    // The loop polls and then drains, so a read must never block: the kernel makes the request
    // descriptor O_RDONLY | O_CLOEXEC, and a read(2) on an empty FIFO blocks unless O_NONBLOCK.
    int flags = fcntl(request->fd, F_GETFL);
    if (flags < 0 || fcntl(request->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        TH_PRESERVING_ERRNO(th_gpio_request_release(request));
        return NULL;
    }
    if (debounce_us > 0) request->debounce_us = applied_debounce(chip->fd, offsets, count);
    return request;
}

uint32_t th_gpio_request_debounce_us(const th_gpio_request *request) { return request->debounce_us; }

int th_gpio_request_fd(const th_gpio_request *request) { return request->fd; }

ssize_t th_gpio_read_edges_fd(int fd, const unsigned int *offsets, size_t count,
                              th_gpio_edge *edges, size_t capacity) {
    struct gpio_v2_line_event records[TH_GPIO_READ_BATCH];
    size_t want = capacity < TH_GPIO_READ_BATCH ? capacity : TH_GPIO_READ_BATCH;
    // The kernel refuses a buffer smaller than one record with EINVAL (linereq_read).
    if (want == 0) return 0;
    ssize_t got = read(fd, records, want * sizeof(records[0]));
    if (got < 0) return errno == EAGAIN ? 0 : -1;
    if ((size_t)got % sizeof(records[0]) != 0) {
        errno = EIO;
        return -1;
    }
    size_t n = (size_t)got / sizeof(records[0]);
    for (size_t i = 0; i < n; i++) {
        uint32_t line = 0;
        while (line < count && offsets[line] != records[i].offset) line++;
        uint32_t id = records[i].id;
        if (line == count || (id != GPIO_V2_LINE_EVENT_RISING_EDGE && id != GPIO_V2_LINE_EVENT_FALLING_EDGE)) {
            errno = EIO;
            return -1;
        }
        edges[i].line = line;
        edges[i].type = id == GPIO_V2_LINE_EVENT_RISING_EDGE ? TH_GPIO_EDGE_RISING : TH_GPIO_EDGE_FALLING;
        edges[i].timestamp_ns = records[i].timestamp_ns;
        edges[i].seqno = records[i].seqno;
        edges[i].line_seqno = records[i].line_seqno;
    }
    return (ssize_t)n;
}

ssize_t th_gpio_request_read_edges(th_gpio_request *request, th_gpio_edge *edges, size_t capacity) {
    return th_gpio_read_edges_fd(request->fd, request->offsets, request->count, edges, capacity);
}

int th_gpio_request_get_values(th_gpio_request *request, uint32_t *mask) {
    struct gpio_v2_line_values values = {.bits = 0, .mask = all_lines(request->count)};
    if (ioctl(request->fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &values) < 0) return -1;
    *mask = (uint32_t)values.bits;
    return 0;
}

void th_gpio_request_release(th_gpio_request *request) {
    if (!request) return;
    close(request->fd);
    free(request);
}
