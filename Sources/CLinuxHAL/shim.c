#define _GNU_SOURCE
#include "CLinuxHAL.h"
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/file.h>
#include <sys/timex.h>
#include <linux/serial.h>

int th_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
int th_ioctl_int(int fd, unsigned long request, unsigned long arg) { return ioctl(fd, request, arg); }
int th_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
int th_flock(int fd, int operation) { return flock(fd, operation); }

int th_adjtimex_read(int *status) {
    struct timex t;
    memset(&t, 0, sizeof t);
    int state = adjtimex(&t);
    *status = t.status;
    return state;
}
const int TH_TIME_ERROR = TIME_ERROR;
const int TH_STA_UNSYNC = STA_UNSYNC;

const unsigned long TH_I2C_SLAVE = I2C_SLAVE;
const unsigned long TH_I2C_RDWR = I2C_RDWR;
const unsigned long TH_I2C_FUNCS = I2C_FUNCS;
const unsigned long TH_TIOCEXCL = TIOCEXCL;
const unsigned long TH_TIOCNXCL = TIOCNXCL;
const unsigned long TH_TIOCGICOUNT = TIOCGICOUNT;
const unsigned long TH_GPIO_GET_CHIPINFO = GPIO_GET_CHIPINFO_IOCTL;
const unsigned long TH_GPIO_V2_GET_LINEINFO = GPIO_V2_GET_LINEINFO_IOCTL;
const uint16_t TH_I2C_M_RD = I2C_M_RD;

int th_timerfd_create_monotonic(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int th_timerfd_settime_abs(int fd, int64_t deadline_ns, int64_t interval_ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    // A zero it_value disarms; an absolute deadline already past fires at once, so never pass 0
    // for "now": use 1 ns.
    if (deadline_ns > 0) {
        spec.it_value.tv_sec = deadline_ns / 1000000000;
        spec.it_value.tv_nsec = deadline_ns % 1000000000;
    }
    spec.it_interval.tv_sec = interval_ns / 1000000000;
    spec.it_interval.tv_nsec = interval_ns % 1000000000;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int th_timerfd_create_realtime(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int th_timerfd_arm_cancel_on_set(int fd) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    // The largest time_t (OpenBMC's phosphor-time-manager does the same): the kernel clamps it
    // to KTIME_MAX (year 2262), so the timer never expires; only a clock set makes it readable.
    spec.it_value.tv_sec = (time_t)(((uint64_t)1 << (sizeof(time_t) * 8 - 1)) - 1);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int th_eventfd(unsigned int initial) { return eventfd(initial, EFD_NONBLOCK | EFD_CLOEXEC); }

static int fill_set(sigset_t *set, const int *signals, int count) {
    if (sigemptyset(set) != 0) return -1;
    for (int i = 0; i < count; i++)
        if (sigaddset(set, signals[i]) != 0) return -1;
    return 0;
}

int th_block_signals(const int *signals, int count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    int rc = pthread_sigmask(SIG_BLOCK, &set, NULL);
    if (rc != 0) { errno = rc; return -1; }
    return 0;
}

int th_signalfd(int fd, const int *signals, int count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    return signalfd(fd, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

ssize_t th_signalfd_read(int fd, int *signo) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) *signo = (int)info.ssi_signo;
    return n;
}

int th_openpt(char *name, size_t name_size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, name_size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

speed_t th_baud_constant(int baud) {
    switch (baud) {
    case 4800: return B4800;
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    default: errno = EINVAL; return (speed_t)-1;
    }
}

void th_termios_make_raw_8n1(struct termios *t, speed_t speed) {
    cfmakeraw(t);                          // no echo, no line discipline, 8 bits, no parity
    t->c_cflag &= ~(CSTOPB | PARENB | CRTSCTS); // one stop bit, no parity, no hardware flow control
    t->c_cflag |= CLOCAL | CREAD;          // ignore modem lines, enable the receiver
    t->c_iflag &= ~(IXON | IXOFF | IXANY); // no software flow control: NMEA is plain ASCII
    // VMIN 1, VTIME 0 with O_NONBLOCK: an empty tty answers EAGAIN, so a read of 0 bytes can only
    // mean end of file (hang-up). With VMIN 0, n_tty returns 0 for "nothing yet" as well, and an
    // unplugged receiver could not be told from a quiet one.
    t->c_cc[VMIN] = 1;
    t->c_cc[VTIME] = 0;
    cfsetispeed(t, speed);
    cfsetospeed(t, speed);
}

int th_serial_port_type(int fd) {
    struct serial_struct info;
    memset(&info, 0, sizeof info);
    if (ioctl(fd, TIOCGSERIAL, &info) != 0) return -1;
    return info.type;
}

void th_heap_usage(size_t *in_use, size_t *free_in_arenas) {
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *free_in_arenas = info.fordblks;
}
