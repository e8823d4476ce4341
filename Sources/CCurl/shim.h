#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// Swift cannot call C variadic functions such as curl_easy_setopt and
// curl_easy_getinfo. Every libcurl call the transport needs goes through one of
// these fixed-signature wrappers instead.

#include <curl/curl.h>

/// libcurl's write and header callback: bytes, 1, count, user data; returns bytes taken.
typedef size_t (*ccurl_data_fn)(char *, size_t, size_t, void *);

static inline CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_set_data_function(CURL *handle, CURLoption option, ccurl_data_fn function) {
    return curl_easy_setopt(handle, option, function);
}

/// The last HTTP status received, 0 when none.
static inline long ccurl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
