#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

/*
 * libcurl is loaded with dlopen on first use, not linked: it and the libraries it needs (GnuTLS's and OpenSSL's
 * TLS, Kerberos, LDAP, SSH, ...: some twenty) made the dynamic loader's work at every start of mockstore, which
 * needs libcurl only to send notifications and for `mockstore control`. So no libcurl symbol is referenced
 * directly: every call goes through the table below, filled once (per copy of this header's code: each
 * copy loads the same library).
 *
 * curl_easy_setopt and curl_easy_getinfo are variadic, so Swift cannot call them: one wrapper per option the
 * client sets, each with the argument type libcurl documents for it.
 */

struct CCurl_functions {
    void *library;
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_perform)(CURL *);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    /* Why loading failed (dlerror's words), when it did. */
    char error[256];
};

/* Function-local statics: Swift's importer emits a header's inline functions, not its static variables. */
static inline struct CCurl_functions *CCurl_table(void)
{
    static struct CCurl_functions table;
    return &table;
}

static inline pthread_once_t *CCurl_once(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static inline void *CCurl_symbol(const char *name)
{
    void *symbol = dlsym(CCurl_table()->library, name);
    if (symbol == NULL && CCurl_table()->error[0] == 0) {
        const char *reason = dlerror();
        snprintf(CCurl_table()->error, sizeof CCurl_table()->error, "%s", reason ? reason : name);
    }
    return symbol;
}

static inline void CCurl_load(void)
{
#ifdef __APPLE__
    const char *names[] = {"libcurl.4.dylib", "libcurl.dylib"};
#else
    const char *names[] = {"libcurl.so.4", "libcurl.so"};
#endif
    for (size_t index = 0; index < sizeof names / sizeof names[0] && CCurl_table()->library == NULL; index++) {
        CCurl_table()->library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (CCurl_table()->library == NULL) {
        const char *reason = dlerror();
        snprintf(CCurl_table()->error, sizeof CCurl_table()->error, "%s", reason ? reason : "libcurl not found");
        return;
    }
    CCurl_table()->global_init = (CURLcode(*)(long))CCurl_symbol("curl_global_init");
    CCurl_table()->easy_init = (CURL * (*)(void)) CCurl_symbol("curl_easy_init");
    CCurl_table()->easy_setopt = (CURLcode(*)(CURL *, CURLoption, ...))CCurl_symbol("curl_easy_setopt");
    CCurl_table()->easy_getinfo = (CURLcode(*)(CURL *, CURLINFO, ...))CCurl_symbol("curl_easy_getinfo");
    CCurl_table()->easy_perform = (CURLcode(*)(CURL *))CCurl_symbol("curl_easy_perform");
    CCurl_table()->easy_reset = (void (*)(CURL *))CCurl_symbol("curl_easy_reset");
    CCurl_table()->easy_cleanup = (void (*)(CURL *))CCurl_symbol("curl_easy_cleanup");
    CCurl_table()->easy_strerror = (const char *(*)(CURLcode))CCurl_symbol("curl_easy_strerror");
    CCurl_table()->slist_append =
        (struct curl_slist * (*)(struct curl_slist *, const char *)) CCurl_symbol("curl_slist_append");
    CCurl_table()->slist_free_all = (void (*)(struct curl_slist *))CCurl_symbol("curl_slist_free_all");
    if (CCurl_table()->error[0] != 0) {
        CCurl_table()->global_init = NULL; /* an incomplete libcurl is not used at all */
    }
}

/* The table, loaded first if it is not yet. (In a debug build each Swift file that calls these functions has
 * its own copy of the table: every wrapper makes sure of its own.) */
static inline struct CCurl_functions *CCurl_ready(void)
{
    pthread_once(CCurl_once(), CCurl_load);
    return CCurl_table();
}

/* Loads libcurl (once) and runs curl_global_init; CURLE_FAILED_INIT when it cannot be loaded
 * (CCurl_load_error says why). Must succeed before any other CCurl_ call. */
static inline CURLcode CCurl_global_init(void)
{
    pthread_once(CCurl_once(), CCurl_load);
    if (CCurl_ready()->global_init == NULL) {
        return CURLE_FAILED_INIT;
    }
    return CCurl_ready()->global_init(CURL_GLOBAL_DEFAULT);
}

/* Why libcurl could not be loaded, or "" when it was. */
static inline const char *CCurl_load_error(void)
{
    pthread_once(CCurl_once(), CCurl_load);
    return CCurl_ready()->error;
}

static inline CURL *CCurl_easy_init(void) { return CCurl_ready()->easy_init(); }
static inline CURLcode CCurl_easy_perform(CURL *handle) { return CCurl_ready()->easy_perform(handle); }
static inline void CCurl_easy_reset(CURL *handle) { CCurl_ready()->easy_reset(handle); }
static inline void CCurl_easy_cleanup(CURL *handle) { CCurl_ready()->easy_cleanup(handle); }

static inline const char *CCurl_easy_strerror(CURLcode code)
{
    return CCurl_ready()->easy_strerror ? CCurl_ready()->easy_strerror(code) : "libcurl is not loaded";
}

static inline struct curl_slist *CCurl_slist_append(struct curl_slist *list, const char *line)
{
    return CCurl_ready()->slist_append(list, line);
}

static inline void CCurl_slist_free_all(struct curl_slist *list)
{
    if (CCurl_ready()->slist_free_all) CCurl_ready()->slist_free_all(list);
}

static inline CURLcode CCurl_set_url(CURL *handle, const char *url)
{
    return CCurl_ready()->easy_setopt(handle, CURLOPT_URL, url);
}

/* Only http:// and https://, also for redirects (which are not followed anyway). */
static inline CURLcode CCurl_set_web_protocols_only(CURL *handle)
{
    CURLcode code = CCurl_ready()->easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    return code != CURLE_OK ? code : CCurl_ready()->easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
}

static inline CURLcode CCurl_set_method(CURL *handle, const char *method)
{
    return CCurl_ready()->easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
}

/* Plain GET (no body). */
static inline CURLcode CCurl_set_get(CURL *handle) { return CCurl_ready()->easy_setopt(handle, CURLOPT_HTTPGET, 1L); }

/* A request body, not copied: it must stay valid until the transfer ends. Sets Content-Length. */
static inline CURLcode CCurl_set_body(CURL *handle, const void *bytes, size_t count)
{
    CURLcode code = CCurl_ready()->easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)count);
    return code != CURLE_OK ? code : CCurl_ready()->easy_setopt(handle, CURLOPT_POSTFIELDS, bytes);
}

static inline CURLcode CCurl_set_headers(CURL *handle, struct curl_slist *headers)
{
    return CCurl_ready()->easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

/* The whole transfer, connecting included, in milliseconds. */
static inline CURLcode CCurl_set_timeout_ms(CURL *handle, long milliseconds)
{
    return CCurl_ready()->easy_setopt(handle, CURLOPT_TIMEOUT_MS, milliseconds);
}

/* No signals (the client runs on many threads; timeouts must not use SIGALRM). */
static inline CURLcode CCurl_set_no_signal(CURL *handle) { return CCurl_ready()->easy_setopt(handle, CURLOPT_NOSIGNAL, 1L); }

/* A buffer of CURL_ERROR_SIZE bytes where libcurl explains a failure. */
static inline CURLcode CCurl_set_error_buffer(CURL *handle, char *buffer)
{
    return CCurl_ready()->easy_setopt(handle, CURLOPT_ERRORBUFFER, buffer);
}

static inline CURLcode CCurl_set_write_function(CURL *handle, curl_write_callback function, void *context)
{
    CURLcode code = CCurl_ready()->easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
    return code != CURLE_OK ? code : CCurl_ready()->easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

static inline CURLcode CCurl_set_header_function(CURL *handle, curl_write_callback function, void *context)
{
    CURLcode code = CCurl_ready()->easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
    return code != CURLE_OK ? code : CCurl_ready()->easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

/* Trust exactly the CA certificates in this PEM (copied by libcurl), instead of the system's. */
static inline CURLcode CCurl_set_ca_pem(CURL *handle, const void *pem, size_t count)
{
    struct curl_blob blob;
    blob.data = (void *)pem;
    blob.len = count;
    blob.flags = CURL_BLOB_COPY;
    return CCurl_ready()->easy_setopt(handle, CURLOPT_CAINFO_BLOB, &blob);
}

static inline CURLcode CCurl_response_code(CURL *handle, long *code)
{
    return CCurl_ready()->easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
/* How many new connections the last transfer had to open (0 when it reused one). */
static inline CURLcode CCurl_new_connections(CURL *handle, long *count)
{
    return CCurl_ready()->easy_getinfo(handle, CURLINFO_NUM_CONNECTS, count);
}
#endif
