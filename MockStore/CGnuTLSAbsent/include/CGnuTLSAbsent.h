#ifndef CGNUTLSABSENT_H
#define CGNUTLSABSENT_H

/// 1: this binary's libmicrohttpd has no TLS (the GnuTLS functions it refers to are the stand-ins of
/// gnutls_absent.c). Nothing needs to call it; it exists so the target has a public header.
int CGnuTLSAbsent_isAbsent(void);

#endif
