/* valgrind 3.19 rewrites the mask sigsuspend is given, in place; libdispatch passes a mask in
   read-only memory, which crashes valgrind. This passes a writable copy instead. */
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
