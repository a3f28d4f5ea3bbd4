// libmosquitto (the MQTT client library of Eclipse Mosquitto), as Swift sees it: loaded on first
// use (dlopen), not linked, so that nfcscan, nfcsim and a station without [broker] never load it
// (and OpenSSL below it): the package's one binary holds all three commands, and loading
// libmosquitto, libssl and libcrypto took 1-3 ms of every start (Docs/performance.md).
// Swift calls the lazy_mosquitto_* functions below; call lazy_mosquitto_available() first.
#pragma once
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <mosquitto.h>

// The library, opened once (dlopen is thread-safe and counts its openings, so two threads that
// race here both get the same handle). NULL when libmosquitto1 is not installed.
static inline void *lazy_mosquitto_library(void) {
    static void *library;
    void *opened = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (opened == NULL) {
        opened = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
        __atomic_store_n(&library, opened, __ATOMIC_RELEASE);
    }
    return opened;
}

// Whether libmosquitto is there with every function used below.
static inline bool lazy_mosquitto_available(void) {
    static const char *const names[] = {
        "mosquitto_connack_string", "mosquitto_connect", "mosquitto_connect_callback_set", "mosquitto_destroy", "mosquitto_disconnect", "mosquitto_disconnect_callback_set", "mosquitto_int_option", "mosquitto_lib_init", "mosquitto_loop", "mosquitto_message_callback_set", "mosquitto_new", "mosquitto_publish", "mosquitto_publish_callback_set", "mosquitto_reconnect", "mosquitto_strerror", "mosquitto_subscribe", "mosquitto_threaded_set", "mosquitto_tls_set", "mosquitto_username_pw_set", "mosquitto_will_set",
    };
    void *library = lazy_mosquitto_library();
    if (library == NULL) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (dlsym(library, names[i]) == NULL) return false;
    }
    return true;
}

// Each function through its symbol, with the type mosquitto.h declares (no reference to it is
// linked: __typeof__ only reads the declaration).
#define LAZY_MOSQUITTO(name) ((__typeof__(&name))dlsym(lazy_mosquitto_library(), #name))

static inline const char *lazy_mosquitto_connack_string(int connack_code) { return LAZY_MOSQUITTO(mosquitto_connack_string)(connack_code); }
static inline int lazy_mosquitto_connect(struct mosquitto *mosq, const char *host, int port, int keepalive) { return LAZY_MOSQUITTO(mosquitto_connect)(mosq, host, port, keepalive); }
static inline void lazy_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) { LAZY_MOSQUITTO(mosquitto_connect_callback_set)(mosq, on_connect); }
static inline void lazy_mosquitto_destroy(struct mosquitto *mosq) { LAZY_MOSQUITTO(mosquitto_destroy)(mosq); }
static inline int lazy_mosquitto_disconnect(struct mosquitto *mosq) { return LAZY_MOSQUITTO(mosquitto_disconnect)(mosq); }
static inline void lazy_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) { LAZY_MOSQUITTO(mosquitto_disconnect_callback_set)(mosq, on_disconnect); }
static inline int lazy_mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) { return LAZY_MOSQUITTO(mosquitto_int_option)(mosq, option, value); }
static inline int lazy_mosquitto_lib_init(void) { return LAZY_MOSQUITTO(mosquitto_lib_init)(); }
static inline int lazy_mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets) { return LAZY_MOSQUITTO(mosquitto_loop)(mosq, timeout, max_packets); }
static inline void lazy_mosquitto_message_callback_set(struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) { LAZY_MOSQUITTO(mosquitto_message_callback_set)(mosq, on_message); }
static inline struct mosquitto *lazy_mosquitto_new(const char *id, bool clean_session, void *obj) { return LAZY_MOSQUITTO(mosquitto_new)(id, clean_session, obj); }
static inline int lazy_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain) { return LAZY_MOSQUITTO(mosquitto_publish)(mosq, mid, topic, payloadlen, payload, qos, retain); }
static inline void lazy_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)) { LAZY_MOSQUITTO(mosquitto_publish_callback_set)(mosq, on_publish); }
static inline int lazy_mosquitto_reconnect(struct mosquitto *mosq) { return LAZY_MOSQUITTO(mosquitto_reconnect)(mosq); }
static inline const char *lazy_mosquitto_strerror(int mosq_errno) { return LAZY_MOSQUITTO(mosquitto_strerror)(mosq_errno); }
static inline int lazy_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) { return LAZY_MOSQUITTO(mosquitto_subscribe)(mosq, mid, sub, qos); }
static inline int lazy_mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) { return LAZY_MOSQUITTO(mosquitto_threaded_set)(mosq, threaded); }
static inline int lazy_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) { return LAZY_MOSQUITTO(mosquitto_tls_set)(mosq, cafile, capath, certfile, keyfile, pw_callback); }
static inline int lazy_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) { return LAZY_MOSQUITTO(mosquitto_username_pw_set)(mosq, username, password); }
static inline int lazy_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) { return LAZY_MOSQUITTO(mosquitto_will_set)(mosq, topic, payloadlen, payload, qos, retain); }
