#include "COpenSSLLifetime.h"

#include <openssl/crypto.h>

/*
 * OpenSSL frees its locks and tables in an atexit handler, while other threads of the process may still be in
 * it (a StoreKit updates listener verifying a transaction, the mock store answering a request): such a thread
 * then crashes the exiting process in a freed lock. The first initialisation decides, so it is made here, when
 * the program is loaded, before any other OpenSSL call (libcurl's among them), and without that handler: the
 * operating system reclaims the memory at exit anyway.
 */
static int keepsUntilExit = 0;

__attribute__((constructor)) static void COpenSSLLifetime_initialise(void)
{
    keepsUntilExit = OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL) == 1;
}

int COpenSSLLifetime_keepsUntilExit(void)
{
    return keepsUntilExit;
}
