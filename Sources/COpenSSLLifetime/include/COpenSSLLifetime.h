#ifndef COPENSSL_LIFETIME_H
#define COPENSSL_LIFETIME_H

/* 1 when OpenSSL was first initialised by this library, with no clean-up at exit; 0 when something had
 * initialised it before (then OpenSSL's own exit handler is registered, and this library cannot take it back). */
int COpenSSLLifetime_keepsUntilExit(void);

#endif
