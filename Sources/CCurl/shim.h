#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

/*
 * curl_easy_setopt and curl_easy_getinfo are variadic, so Swift cannot call them: one wrapper per option the
 * client sets, each with the argument type libcurl documents for it.
 */

static inline CURLcode CCurl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode CCurl_set_url(CURL *handle, const char *url)
{
    return curl_easy_setopt(handle, CURLOPT_URL, url);
}

/* Only http:// and https://, also for redirects (which are not followed anyway). */
static inline CURLcode CCurl_set_web_protocols_only(CURL *handle)
{
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
}

static inline CURLcode CCurl_set_method(CURL *handle, const char *method)
{
    return curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
}

/* Plain GET (no body). */
static inline CURLcode CCurl_set_get(CURL *handle) { return curl_easy_setopt(handle, CURLOPT_HTTPGET, 1L); }

/* A request body, not copied: it must stay valid until the transfer ends. Sets Content-Length. */
static inline CURLcode CCurl_set_body(CURL *handle, const void *bytes, size_t count)
{
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)count);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_POSTFIELDS, bytes);
}

static inline CURLcode CCurl_set_headers(CURL *handle, struct curl_slist *headers)
{
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

/* The whole transfer, connecting included, in milliseconds. */
static inline CURLcode CCurl_set_timeout_ms(CURL *handle, long milliseconds)
{
    return curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, milliseconds);
}

/* No signals (the client runs on many threads; timeouts must not use SIGALRM). */
static inline CURLcode CCurl_set_no_signal(CURL *handle) { return curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L); }

/* A buffer of CURL_ERROR_SIZE bytes where libcurl explains a failure. */
static inline CURLcode CCurl_set_error_buffer(CURL *handle, char *buffer)
{
    return curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, buffer);
}

static inline CURLcode CCurl_set_write_function(CURL *handle, curl_write_callback function, void *context)
{
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

static inline CURLcode CCurl_set_header_function(CURL *handle, curl_write_callback function, void *context)
{
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

/* Trust exactly the CA certificates in this PEM (copied by libcurl), instead of the system's. */
static inline CURLcode CCurl_set_ca_pem(CURL *handle, const void *pem, size_t count)
{
    struct curl_blob blob;
    blob.data = (void *)pem;
    blob.len = count;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, CURLOPT_CAINFO_BLOB, &blob);
}

static inline CURLcode CCurl_response_code(CURL *handle, long *code)
{
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
/* How many new connections the last transfer had to open (0 when it reused one). */
static inline CURLcode CCurl_new_connections(CURL *handle, long *count)
{
    return curl_easy_getinfo(handle, CURLINFO_NUM_CONNECTS, count);
}
#endif
