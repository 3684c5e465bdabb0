#ifndef CPLATFORM_SHIM_H
#define CPLATFORM_SHIM_H
/* The C calls of the platform seam that Swift cannot make itself. */
#ifdef __linux__
#include <sys/prctl.h>
/* prctl(2) is variadic, which Swift cannot call: PR_SET_PDEATHSIG, wrapped. */
static inline int CPlatform_setParentDeathSignal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
/* renameat2(2) with RENAME_EXCHANGE: two names swapped at once (a directory and a link, in the tests that swap a
   directory for a link mid-write as an attacker would). Made through syscall(2), which is variadic. */
static inline int CPlatform_renameExchange(int fromDirectory, const char *from, int toDirectory, const char *to) {
    return (int)syscall(SYS_renameat2, fromDirectory, from, toDirectory, to, 1U << 1 /* RENAME_EXCHANGE */);
}
#endif
#endif
