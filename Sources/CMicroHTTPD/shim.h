#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/*
 * MHD_start_daemon and MHD_get_daemon_info are variadic, so Swift cannot call them: these wrappers pass
 * fixed arguments. The daemon binds the given socket address (IPv4 or IPv6), calls `completed` once per
 * request (to free the per-request state kept in con_cls), drops idle connections after `timeout_seconds`
 * and accepts at most `connection_limit` connections at a time.
 */
static inline struct MHD_Daemon *CMicroHTTPD_start_daemon(
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit,
    unsigned int timeout_seconds)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_END);
}

/*
 * The same over TLS (MHD_USE_TLS is added to `flags`): `key_pem` and `certificate_pem` are the server's private key
 * and certificate chain as PEM text, which must stay valid until the daemon is stopped (libmicrohttpd keeps the
 * pointers). Tests use it as an https:// notification receiver.
 */
static inline struct MHD_Daemon *CMicroHTTPD_start_tls_daemon(
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit,
    unsigned int timeout_seconds,
    const char *key_pem,
    const char *certificate_pem)
{
    return MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_HTTPS_MEM_KEY, key_pem,
                            MHD_OPTION_HTTPS_MEM_CERT, certificate_pem,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (the real one when it was started on port 0); 0 if unknown. */
static inline uint16_t CMicroHTTPD_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
