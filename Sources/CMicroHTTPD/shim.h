#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>
#include <microhttpd.h>

/*
 * MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, so Swift cannot call them: these
 * wrappers pass fixed arguments. The daemon binds the given socket address (IPv4 or IPv6), runs each connection on
 * a thread of its own (with a stack of `thread_stack_bytes`, 0 for the system's default); `uri_logged` is called as soon as a
 * request line is in (its result is the request's con_cls), `completed` once per request (to free that state),
 * `connection_event` when a connection opens and closes. Idle connections are dropped after `timeout_seconds`;
 * at most `connection_limit` are open at a time. With `key_pem` and `certificate_pem` (PEM text that must stay
 * valid until the daemon is stopped: libmicrohttpd keeps the pointers) it speaks TLS; NULL for plain HTTP.
 * libmicrohttpd's own error log is never turned on: the caller says what went wrong, in its own words.
 */
static inline struct MHD_Daemon *CMicroHTTPD_start(
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *context,
    MHD_RequestCompletedCallback completed,
    void *(*uri_logged)(void *cls, const char *uri, struct MHD_Connection *connection),
    MHD_NotifyConnectionCallback connection_event,
    unsigned int connection_limit,
    unsigned int timeout_seconds,
    size_t thread_stack_bytes,
    const char *key_pem,
    const char *certificate_pem)
{
    struct MHD_OptionItem options[12];
    int count = 0;
    options[count++] = (struct MHD_OptionItem) { MHD_OPTION_SOCK_ADDR, 0, (void *) address };
    options[count++] = (struct MHD_OptionItem) { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, context };
    options[count++] = (struct MHD_OptionItem) { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) uri_logged, context };
    options[count++] = (struct MHD_OptionItem) { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) connection_event, context };
    options[count++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL };
    options[count++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, NULL };
    if (thread_stack_bytes > 0)
        options[count++] = (struct MHD_OptionItem) { MHD_OPTION_THREAD_STACK_SIZE, (intptr_t) thread_stack_bytes, NULL };
    if (key_pem != NULL && certificate_pem != NULL) {
        flags |= MHD_USE_TLS;
        options[count++] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) key_pem };
        options[count++] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) certificate_pem };
    }
    options[count] = (struct MHD_OptionItem) { MHD_OPTION_END, 0, NULL };
    /* MHD_OPTION_ARRAY copies nothing it needs later except the pointers given, which outlive the daemon. */
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/* The socket of a connection, or -1. */
static inline int CMicroHTTPD_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* Whether a connection event is its opening (MHD_CONNECTION_NOTIFY_STARTED) rather than its closing. */
static inline bool CMicroHTTPD_is_opening(enum MHD_ConnectionNotificationCode event)
{
    return event == MHD_CONNECTION_NOTIFY_STARTED;
}

/* The port the daemon listens on (the real one when it was started on port 0); 0 if unknown. */
static inline uint16_t CMicroHTTPD_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
