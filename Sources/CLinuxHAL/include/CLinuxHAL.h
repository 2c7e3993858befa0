// C shim for the parts of Linux that Swift's Glibc module hides or cannot call:
// variadic ioctl/open, timerfd/eventfd/signalfd (GNU extensions), pseudo-terminals, and the
// i2c-dev and GPIO uAPI structures. Only kernel and libc headers: no -dev package needed.
#ifndef CLINUXHAL_H
#define CLINUXHAL_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <time.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <linux/gpio.h>
#include <linux/serial.h>

// ioctl(2) is variadic; these are its two shapes.
int th_ioctl_ptr(int fd, unsigned long request, void *arg);
int th_ioctl_int(int fd, unsigned long request, unsigned long arg);
// open(2) is variadic (the mode).
int th_open(const char *path, int flags, mode_t mode);
// flock(2): Swift resolves the name to `struct flock` from <fcntl.h>.
int th_flock(int fd, int operation);

/// adjtimex(2) with modes 0 (read only): returns the clock state (TIME_OK … TIME_ERROR) or -1
/// with errno, and stores timex.status in *status.
int th_adjtimex_read(int *status);
extern const int TH_TIME_ERROR;
extern const int TH_STA_UNSYNC;

// Request numbers: macros built from _IOR/_IOWR do not import into Swift.
extern const unsigned long TH_I2C_SLAVE;
extern const unsigned long TH_I2C_RDWR;
extern const unsigned long TH_I2C_FUNCS;
extern const unsigned long TH_TIOCEXCL;
extern const unsigned long TH_TIOCNXCL;
extern const unsigned long TH_TIOCGICOUNT;
extern const unsigned long TH_GPIO_GET_CHIPINFO;
extern const unsigned long TH_GPIO_V2_GET_LINEINFO;
extern const uint16_t TH_I2C_M_RD;

// timerfd, eventfd, signalfd (GNU extensions).
int th_timerfd_create_monotonic(void);
int th_timerfd_settime_abs(int fd, int64_t deadline_ns, int64_t interval_ns);
// A CLOCK_REALTIME timerfd that never expires, armed with TFD_TIMER_ABSTIME |
// TFD_TIMER_CANCEL_ON_SET only to be cancelled: timerfd_create(2) says a read then fails with
// ECANCELED once the real-time clock "undergoes a discontinuous change" (settimeofday,
// clock_settime, an NTP step). Arming returns -1/ECANCELED if a change happened since the last
// read (timerfd_create(2) NOTES); the timer is armed all the same.
int th_timerfd_create_realtime(void);
int th_timerfd_arm_cancel_on_set(int fd);
int th_eventfd(unsigned int initial);
int th_signalfd(int fd, const int *signals, int count);
int th_block_signals(const int *signals, int count);
// Reads one signalfd_siginfo and returns its signal number through *signo.
ssize_t th_signalfd_read(int fd, int *signo);

// Pseudo-terminal master (posix_openpt + grantpt + unlockpt); the slave's path into `name`.
int th_openpt(char *name, size_t name_size);

// termios: raw 8N1 at `baud` (a plain number such as 9600); -1 with errno EINVAL for others.
speed_t th_baud_constant(int baud);
void th_termios_make_raw_8n1(struct termios *t, speed_t speed);

// GPIO_GET_CHIPINFO_IOCTL is common to both uAPI versions; line info is read through v2
// (Linux 5.10+), because kernels built without CONFIG_GPIO_CDEV_V1 (Debian's 7.x) answer every
// v1 ioctl with EINVAL.
typedef struct gpiochip_info th_gpiochip_info;
typedef struct gpio_v2_line_info th_gpio_v2_line_info;
typedef struct i2c_msg th_i2c_msg;
typedef struct i2c_rdwr_ioctl_data th_i2c_rdwr;

// TIOCGICOUNT's answer (include/uapi/linux/serial.h): the UART's interrupt counters, of which
// `overrun` (receive FIFO full) and `buf_overrun` (tty buffers full) count lost characters.
typedef struct serial_icounter_struct th_serial_icounter;

// TIOCGSERIAL's `type`: PORT_UNKNOWN (0) for a ttyS* with no UART behind it; -1 with errno.
int th_serial_port_type(int fd);

// mallinfo2(3) (glibc 2.33+; <malloc.h> is not in Swift's Glibc module): the heap as the
// allocator sees it, to tell a leak (bytes in use grow) from fragmentation (resident memory
// grows while bytes in use do not). *in_use: uordblks + hblkhd, bytes handed out and not freed
// (arena chunks and mmap'd chunks); *free_in_arenas: fordblks, free bytes the arenas keep.
// mallinfo2 walks every arena's bins under their locks: for a sample a day, not a hot path.
void th_heap_usage(size_t *in_use, size_t *free_in_arenas);

#endif
