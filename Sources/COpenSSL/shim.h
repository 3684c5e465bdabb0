#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/rand.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/bio.h>
#include <openssl/objects.h>
#include <openssl/asn1.h>

// Swift does not import function-like macros or variadic C functions, so each one the Swift code needs is wrapped
// here in a static inline function, prefixed with the module name (as apple/swift-crypto's CCryptoBoringSSLShims).

/// Generates a P-256 key with named-curve encoding. Wraps the variadic EVP_PKEY_Q_keygen (EVP_EC_gen is a macro).
static inline EVP_PKEY *COpenSSL_EVP_EC_gen_P256(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

/// A P-256 public key from its uncompressed point (65 bytes), through the EC key manager's import rather than a DER
/// decoder (OpenSSL's decoders cost a few hundred microseconds a key). Nil if the point is not on the curve.
static inline EVP_PKEY *COpenSSL_P256_public_key_from_point(const unsigned char *point, size_t length) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context == NULL) {
        return NULL;
    }
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, length),
        OSSL_PARAM_construct_end(),
    };
    EVP_PKEY *key = NULL;
    if (EVP_PKEY_fromdata_init(context) != 1
        || EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, parameters) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/// Sets `certificate`'s public key to the P-256 point `point` (uncompressed, 65 bytes) through a legacy EC_KEY, which
/// OpenSSL encodes straight into the SubjectPublicKeyInfo; a provider key goes through its encoders and then its
/// decoders, a millisecond a certificate of a new store's test CA. The deprecated EC_KEY calls stay in this function.
/// Returns 1 on success.
static inline int COpenSSL_X509_set_P256_public_point(X509 *certificate, const unsigned char *point, size_t length) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    EC_KEY *curveKey = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    if (curveKey == NULL) {
        return 0;
    }
    EVP_PKEY *key = EVP_PKEY_new();
    if (key == NULL || EC_KEY_oct2key(curveKey, point, length, NULL) != 1
        || EVP_PKEY_assign_EC_KEY(key, curveKey) != 1) {
        EC_KEY_free(curveKey);
        EVP_PKEY_free(key);
        return 0;
    }
    int status = X509_set_pubkey(certificate, key);
    EVP_PKEY_free(key);
    return status;
#pragma clang diagnostic pop
}

/// OPENSSL_free is a macro over CRYPTO_free that adds file and line.
static inline void COpenSSL_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

/// BIO_get_mem_data is a macro over BIO_ctrl. Returns the length, or a negative value on failure.
static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// The STACK_OF(X509) helpers are macros in OpenSSL 3.0.
static inline STACK_OF(X509) *COpenSSL_sk_X509_new_null(void) {
    return sk_X509_new_null();
}

static inline int COpenSSL_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}

/// Frees the stack only; the certificates it points to stay owned by their Swift wrappers.
static inline void COpenSSL_sk_X509_free(STACK_OF(X509) *stack) {
    sk_X509_free(stack);
}

/// The P-256 group, made once and shared: each key of COpenSSL_P256_point_key copies it (a copy costs far less than
/// making a group from its parameters, as EVP_PKEY_fromdata does for every key). NULL on failure.
static inline EC_GROUP *COpenSSL_P256_group_new(void) {
    return EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
}

/// A P-256 key for verifying only, on a copy of `group` (COpenSSL_P256_group_new), from its uncompressed point
/// (65 bytes). NULL if the point is not on the curve (EC_POINT_oct2point checks it) or on failure. The deprecated
/// EC_KEY calls stay in these functions: a legacy key verifies without the provider's fetches and key import, which
/// cost as much as the verification itself when every key is used once (`credit pnl --summaries`).
static inline EC_KEY *COpenSSL_P256_point_key(const EC_GROUP *group, const unsigned char *point, size_t length) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    EC_KEY *key = EC_KEY_new();
    if (key == NULL) {
        return NULL;
    }
    if (EC_KEY_set_group(key, group) != 1 || EC_KEY_oct2key(key, point, length, NULL) != 1) {
        EC_KEY_free(key);
        return NULL;
    }
    return key;
#pragma clang diagnostic pop
}

static inline void COpenSSL_P256_point_key_free(EC_KEY *key) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    EC_KEY_free(key);
#pragma clang diagnostic pop
}

/// Whether (r, s), 32 big-endian bytes each, is an ECDSA signature by `key` of the 32-byte `digest`: 1 valid, 0 not
/// (r or s zero or not below the group order included), -1 on failure.
static inline int COpenSSL_P256_verify_digest(
    const EC_KEY *key, const unsigned char *digest, const unsigned char *r, const unsigned char *s) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *bigR = BN_bin2bn(r, 32, NULL);
    BIGNUM *bigS = BN_bin2bn(s, 32, NULL);
    if (signature == NULL || bigR == NULL || bigS == NULL || ECDSA_SIG_set0(signature, bigR, bigS) != 1) {
        BN_free(bigR);
        BN_free(bigS);
        ECDSA_SIG_free(signature);
        return -1;
    }
    int status = ECDSA_do_verify(digest, 32, signature, (EC_KEY *)key);
    ECDSA_SIG_free(signature);
    return status;
#pragma clang diagnostic pop
}

#endif
