// The GnuTLS functions Debian's static libmicrohttpd refers to, for `mockstore`, which serves plain HTTP only
// (MockStore/StaticLinking/README.md): its library constructor's gnutls_global_init succeeds; anything TLS fails
// with GNUTLS_E_UNIMPLEMENTED_FEATURE, so an HTTPS daemon would not start. Hidden: nothing loaded later (libcurl's
// own GnuTLS, through its dependencies) can be bound to these.
#include <stddef.h>
#include <stdlib.h>

#include "CGnuTLSAbsent.h"

#define ABSENT __attribute__((visibility("hidden")))
// Returned as long: gnutls_record_recv and gnutls_record_send return ssize_t.
#define GNUTLS_E_UNIMPLEMENTED_FEATURE (-1250L)

int CGnuTLSAbsent_isAbsent(void) { return 1; }

ABSENT long gnutls_alpn_set_protocols(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_bye(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_certificate_allocate_credentials(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT void gnutls_certificate_free_credentials(void) {}
ABSENT void gnutls_certificate_server_set_request(void) {}
ABSENT void gnutls_certificate_set_dh_params(void) {}
ABSENT void gnutls_certificate_set_retrieve_function2(void) {}
ABSENT void gnutls_certificate_set_retrieve_function3(void) {}
ABSENT long gnutls_certificate_set_x509_key_mem(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_certificate_set_x509_key_mem2(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_certificate_set_x509_trust_mem(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT int gnutls_cipher_get(void *session) {
    (void)session;
    return 0;  /* GNUTLS_CIPHER_UNKNOWN */
}
ABSENT long gnutls_credentials_set(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT void gnutls_deinit(void) {}
ABSENT void gnutls_dh_params_deinit(void) {}
ABSENT long gnutls_dh_params_import_pkcs3(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_dh_params_init(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT void gnutls_global_deinit(void) {}
ABSENT int gnutls_global_init(void) { return 0; }
ABSENT long gnutls_handshake(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_init(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT void *(*gnutls_malloc)(size_t) = malloc;
ABSENT void gnutls_priority_deinit(void) {}
ABSENT long gnutls_priority_init(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_priority_set(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT int gnutls_protocol_get_version(void *session) {
    (void)session;
    return 0;  /* GNUTLS_VERSION_UNKNOWN */
}
ABSENT long gnutls_psk_allocate_server_credentials(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT void gnutls_psk_free_server_credentials(void) {}
ABSENT void gnutls_psk_set_server_credentials_function(void) {}
ABSENT size_t gnutls_record_check_pending(void) { return 0; }
ABSENT int gnutls_record_get_direction(void) { return 0; }
ABSENT long gnutls_record_recv(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT long gnutls_record_send(void) { return GNUTLS_E_UNIMPLEMENTED_FEATURE; }
ABSENT void *gnutls_session_get_ptr(void *session) {
    (void)session;
    return NULL;
}
ABSENT void gnutls_session_set_ptr(void) {}
ABSENT const char *gnutls_strerror(int error) {
    (void)error;
    return "TLS is not built into mockstore";
}
ABSENT void gnutls_transport_set_int2(void) {}
