// OpenSSL's libcrypto (3.x) for LibCrypto, its one Swift wrapper: ECDSA, AES, CMAC, X.509.
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
