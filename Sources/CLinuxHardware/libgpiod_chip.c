// libgpiod 2 loaded at run time (see include/CLinuxHardwareLibgpiod.h): binding the library and
// opening chips by path, label or line name.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CDynamicLibrary.h"
#include "internal.h"
#include "libgpiod_abi.h"

// cdl_open_cached's bind: takes every function, then refuses anything but a 2.x (a 3.x would
// have another soname; this guards a path given by hand).
static int bind_libgpiod(void *table, void *h, const char *n, char *e, size_t s) {
    struct th_gpiod_library *l = table;
    int m = 0;
#define TAKE(field, symbol) l->field = cdl_take(h, symbol, n, "libgpiod 2", e, s, &m)
    TAKE(api_version, "gpiod_api_version");
    TAKE(chip_open, "gpiod_chip_open");
    TAKE(chip_close, "gpiod_chip_close");
    TAKE(chip_get_info, "gpiod_chip_get_info");
    TAKE(chip_get_line_offset_from_name, "gpiod_chip_get_line_offset_from_name");
    TAKE(chip_get_line_info, "gpiod_chip_get_line_info");
    TAKE(chip_request_lines, "gpiod_chip_request_lines");
    TAKE(chip_info_get_label, "gpiod_chip_info_get_label");
    TAKE(chip_info_get_num_lines, "gpiod_chip_info_get_num_lines");
    TAKE(chip_info_free, "gpiod_chip_info_free");
    TAKE(line_info_get_debounce_period_us, "gpiod_line_info_get_debounce_period_us");
    TAKE(line_info_free, "gpiod_line_info_free");
    TAKE(line_settings_new, "gpiod_line_settings_new");
    TAKE(line_settings_free, "gpiod_line_settings_free");
    TAKE(line_settings_set_direction, "gpiod_line_settings_set_direction");
    TAKE(line_settings_set_edge_detection, "gpiod_line_settings_set_edge_detection");
    TAKE(line_settings_set_bias, "gpiod_line_settings_set_bias");
    TAKE(line_settings_set_event_clock, "gpiod_line_settings_set_event_clock");
    TAKE(line_settings_set_debounce_period_us, "gpiod_line_settings_set_debounce_period_us");
    TAKE(line_config_new, "gpiod_line_config_new");
    TAKE(line_config_free, "gpiod_line_config_free");
    TAKE(line_config_add_line_settings, "gpiod_line_config_add_line_settings");
    TAKE(request_config_new, "gpiod_request_config_new");
    TAKE(request_config_free, "gpiod_request_config_free");
    TAKE(request_config_set_consumer, "gpiod_request_config_set_consumer");
    TAKE(line_request_release, "gpiod_line_request_release");
    TAKE(line_request_get_fd, "gpiod_line_request_get_fd");
    TAKE(line_request_get_values_subset, "gpiod_line_request_get_values_subset");
    TAKE(line_request_read_edge_events, "gpiod_line_request_read_edge_events");
    TAKE(edge_event_buffer_new, "gpiod_edge_event_buffer_new");
    TAKE(edge_event_buffer_free, "gpiod_edge_event_buffer_free");
    TAKE(edge_event_buffer_get_event, "gpiod_edge_event_buffer_get_event");
    TAKE(edge_event_get_event_type, "gpiod_edge_event_get_event_type");
    TAKE(edge_event_get_timestamp_ns, "gpiod_edge_event_get_timestamp_ns");
    TAKE(edge_event_get_line_offset, "gpiod_edge_event_get_line_offset");
    TAKE(edge_event_get_global_seqno, "gpiod_edge_event_get_global_seqno");
    TAKE(edge_event_get_line_seqno, "gpiod_edge_event_get_line_seqno");
#undef TAKE
    if (m) return CDL_FAILED;
    const char *version = l->api_version();
    if (version == NULL || strncmp(version, "2.", 2) != 0) {
        snprintf(e, s, "%s is libgpiod %s, not 2.x", n, version ? version : "(no version)");
        return CDL_FAILED;
    }
    return CDL_BOUND;
}

const th_gpiod_library *th_gpiod_open(const char *library_name, char *error, size_t error_size) {
    return cdl_open_cached(library_name, "libgpiod3", sizeof(struct th_gpiod_library), bind_libgpiod, error,
                           error_size);
}

const char *th_gpiod_version(const th_gpiod_library *library) { return library->api_version(); }

th_gpiod_chip *th_gpiod_chip_open_path(const th_gpiod_library *library, const char *path) {
    // libgpiod checks that `path` is a gpiochip (a character device of the gpio bus in sysfs)
    // and opens it O_RDWR | O_CLOEXEC (lib/chip.c, lib/internal.c).
    struct gpiod_chip *opened = library->chip_open(path);
    if (!opened) return NULL;
    struct gpiod_chip_info *info = library->chip_get_info(opened);
    th_gpiod_chip *chip = info ? calloc(1, sizeof(*chip)) : NULL;
    if (!chip) {
        TH_PRESERVING_ERRNO(if (info) library->chip_info_free(info); library->chip_close(opened));
        return NULL;
    }
    chip->library = library;
    chip->chip = opened;
    size_t lines = library->chip_info_get_num_lines(info);
    chip->num_lines = lines > UINT32_MAX ? UINT32_MAX : (unsigned int)lines;
    const char *label = library->chip_info_get_label(info);
    snprintf(chip->label, sizeof(chip->label), "%s", label ? label : "");
    library->chip_info_free(info);
    return chip;
}

unsigned int th_gpiod_chip_line_count(const th_gpiod_chip *chip) { return chip->num_lines; }

int th_gpiod_chip_find_line(th_gpiod_chip *chip, const char *name) {
    return chip->library->chip_get_line_offset_from_name(chip->chip, name);
}

void th_gpiod_chip_close(th_gpiod_chip *chip) {
    if (!chip) return;
    chip->library->chip_close(chip->chip);
    free(chip);
}

// libgpiod 2 opens chips by path only; the label and line-name scans are the uAPI half's
// (th_gpio_scan), with libgpiod opening each candidate.
struct query {
    const th_gpiod_library *library;
    const char *key;
    unsigned int *offset;
};

static void *probe_label(const char *path, void *context) {
    struct query *query = context;
    th_gpiod_chip *chip = th_gpiod_chip_open_path(query->library, path);
    if (!chip) return NULL;
    if (strcmp(chip->label, query->key) == 0) return chip;
    th_gpiod_chip_close(chip);
    errno = 0;
    return NULL;
}

static void *probe_line_name(const char *path, void *context) {
    struct query *query = context;
    th_gpiod_chip *chip = th_gpiod_chip_open_path(query->library, path);
    if (!chip) return NULL;
    int found = th_gpiod_chip_find_line(chip, query->key);
    if (found >= 0) {
        *query->offset = (unsigned int)found;
        return chip;
    }
    TH_PRESERVING_ERRNO(th_gpiod_chip_close(chip));
    if (errno == ENOENT) errno = 0;  // a chip without the line: not a failure
    return NULL;
}

th_gpiod_chip *th_gpiod_chip_open_label(const th_gpiod_library *library, const char *dir, const char *label) {
    struct query query = {.library = library, .key = label};
    return th_gpio_scan(dir, probe_label, &query);
}

th_gpiod_chip *th_gpiod_chip_open_line_name(const th_gpiod_library *library, const char *dir, const char *name,
                                            unsigned int *offset) {
    struct query query = {.library = library, .key = name, .offset = offset};
    return th_gpio_scan(dir, probe_line_name, &query);
}
