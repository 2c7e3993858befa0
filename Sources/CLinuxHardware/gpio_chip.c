// Opening gpiochips by path, label or line name, through the character device's ioctls
// (Documentation/userspace-api/gpio/chardev.rst): GPIO_GET_CHIPINFO_IOCTL for the label and the
// line count, GPIO_V2_GET_LINEINFO_IOCTL for line names.
//
// Chip numbers are not stable (Pi 5: gpiochip4 before kernel 6.6.45, gpiochip0 after, only
// gpiochip11-15 on some 6.12 kernels), so the device is found by label or line name: every
// /dev/gpiochip* is opened in numeric order; a chip that cannot be opened is skipped, and EACCES
// is reported only if nothing matched (th_gpio_scan, which the libgpiod chips use too).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

th_gpio_chip *th_gpio_chip_open_path(const char *path) {
    // Read-only is enough for every ioctl, as the kernel's own tools/gpio open the chip.
    // O_NONBLOCK only so that a FIFO called gpiochip* cannot hang the scan in open(2).
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct gpiochip_info info;
    memset(&info, 0, sizeof(info));
    if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) < 0) {
        // A regular file or another device answers ENOTTY (no such ioctl) or EINVAL: either way,
        // not a gpiochip. Anything else (ENODEV: the chip went away) is kept.
        if (errno == EINVAL) errno = ENOTTY;
        TH_PRESERVING_ERRNO(close(fd));
        return NULL;
    }
    th_gpio_chip *chip = calloc(1, sizeof(*chip));
    if (!chip) {
        TH_PRESERVING_ERRNO(close(fd));
        return NULL;
    }
    chip->fd = fd;
    chip->num_lines = info.lines;
    // The kernel copies the label with strscpy, always terminated.
    memcpy(chip->label, info.label, sizeof(chip->label));
    chip->label[sizeof(chip->label) - 1] = '\0';
    return chip;
}

unsigned int th_gpio_chip_line_count(const th_gpio_chip *chip) { return chip->num_lines; }

void th_gpio_chip_close(th_gpio_chip *chip) {
    if (!chip) return;
    close(chip->fd);
    free(chip);
}

int th_gpio_line_info(int fd, unsigned int offset, struct gpio_v2_line_info *info) {
    memset(info, 0, sizeof(*info));
    info->offset = offset;
    return ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, info) < 0 ? -1 : 0;
}

int th_gpio_chip_find_line(th_gpio_chip *chip, const char *name) {
    struct gpio_v2_line_info info;
    for (unsigned int offset = 0; offset < chip->num_lines; offset++) {
        if (th_gpio_line_info(chip->fd, offset, &info) < 0) return -1;
        // Names are at most 31 bytes and terminated (strscpy in gpio_desc_to_lineinfo).
        if (strncmp(info.name, name, sizeof(info.name)) == 0) return (int)offset;
    }
    errno = ENOENT;
    return -1;
}

static int is_gpiochip_entry(const struct dirent *entry) {
    return strncmp(entry->d_name, "gpiochip", 8) == 0;
}

void *th_gpio_scan(const char *dir, th_gpio_probe probe, void *context) {
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, is_gpiochip_entry, versionsort);
    if (n < 0) return NULL;
    void *found = NULL;
    int denied = 0;
    char path[4096];
    for (int i = 0; i < n; i++) {
        if (!found && snprintf(path, sizeof(path), "%s/%s", dir, entries[i]->d_name) < (int)sizeof(path)) {
            errno = 0;
            found = probe(path, context);
            if (!found && (errno == EACCES || errno == EPERM) && !denied) denied = errno;
        }
        free(entries[i]);
    }
    free(entries);
    if (!found) errno = denied ? denied : ENOENT;
    return found;
}

static void *probe_label(const char *path, void *label) {
    th_gpio_chip *chip = th_gpio_chip_open_path(path);
    if (!chip) return NULL;
    if (strcmp(chip->label, label) == 0) return chip;
    th_gpio_chip_close(chip);
    errno = 0;
    return NULL;
}

struct line_query {
    const char *name;
    unsigned int *offset;
};

static void *probe_line_name(const char *path, void *context) {
    struct line_query *query = context;
    th_gpio_chip *chip = th_gpio_chip_open_path(path);
    if (!chip) return NULL;
    int found = th_gpio_chip_find_line(chip, query->name);
    if (found >= 0) {
        *query->offset = (unsigned int)found;
        return chip;
    }
    TH_PRESERVING_ERRNO(th_gpio_chip_close(chip));
    if (errno == ENOENT) errno = 0;  // a chip without the line: not a failure
    return NULL;
}

th_gpio_chip *th_gpio_chip_open_label(const char *dir, const char *label) {
    return th_gpio_scan(dir, probe_label, (void *)label);
}

th_gpio_chip *th_gpio_chip_open_line_name(const char *dir, const char *name, unsigned int *offset) {
    struct line_query query = {.name = name, .offset = offset};
    return th_gpio_scan(dir, probe_line_name, &query);
}
