#ifndef CPLATFORM_SHIM_H
#define CPLATFORM_SHIM_H
/* The C calls of the platform seam that Swift cannot make itself. */
#ifdef __linux__
#include <sys/prctl.h>
/* prctl(2) is variadic, which Swift cannot call: PR_SET_PDEATHSIG, wrapped. */
static inline int CPlatform_setParentDeathSignal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
#endif
#endif
