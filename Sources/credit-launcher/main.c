/*
 * `credit`: blocks SIGINT and SIGTERM, then becomes `credit-core` beside it (execv keeps the pid and the blocked
 * mask). Linked statically, it runs before any dynamic loading: a stop signal sent to `credit sync --watch` while
 * `credit-core`'s dynamic loader maps its libraries (some 20 ms) stays pending until the watch takes it, instead of
 * ending the process by the default action. `credit-core` unblocks them again for every command but a watch.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    (void)argc;
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, NULL);

    char path[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) {
        fprintf(stderr, "credit: cannot find where this program is: %s\n", strerror(errno));
        return 70;
    }
    path[length] = '\0';
    char *slash = strrchr(path, '/');
    const char *core = "credit-core";
    size_t directory = slash ? (size_t)(slash - path) + 1 : 0;
    if (directory + strlen(core) + 1 > sizeof path) {
        fprintf(stderr, "credit: the path of this program is too long\n");
        return 70;
    }
    strcpy(path + directory, core);
    execv(path, argv);
    fprintf(stderr, "credit: cannot start %s: %s\n", path, strerror(errno));
    return 70;
}
