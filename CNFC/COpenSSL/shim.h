// OpenSSL's libcrypto (3.x) for LibCrypto, its one Swift wrapper: ECDSA, AES, CMAC, X.509.
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

// OpenSSL spells these as function-like macros, which Swift does not import.

static inline STACK_OF(X509) *nfc_x509_stack_new(void) { return sk_X509_new_null(); }

/// Takes ownership of `certificate` on success (1); the caller still owns it on failure (0).
static inline int nfc_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate) > 0;
}

/// Frees the stack and every certificate on it.
static inline void nfc_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

static inline void nfc_openssl_free(void *memory) { OPENSSL_free(memory); }

// OSSL_PARAM arrays point at their keys and values: built here, where the keys are static strings
// and the array lives on the stack for exactly the call that reads it.

/// A public EC key on the named curve (`group`, e.g. "secp128r1") from an uncompressed point
/// (04 ‖ X ‖ Y), or NULL if OpenSSL refuses it (an unknown curve, a point not on it). The caller
/// frees it with EVP_PKEY_free.
static inline EVP_PKEY *nfc_ec_public_key(const char *group, const unsigned char *point, size_t length) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (unsigned char *)point, length),
        OSSL_PARAM_END,
    };
    // On failure EVP_PKEY_fromdata frees what it made and leaves key NULL.
    if (context != NULL && EVP_PKEY_fromdata_init(context) == 1)
        EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params);
    EVP_PKEY_CTX_free(context);
    return key;
}

/// EVP_MAC_init for CMAC with AES-128 in CBC mode (1 on success).
static inline int nfc_cmac_aes128_init(EVP_MAC_CTX *context, const unsigned char *key, size_t length) {
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)"AES-128-CBC", 0),
        OSSL_PARAM_END,
    };
    return EVP_MAC_init(context, key, length, params);
}
