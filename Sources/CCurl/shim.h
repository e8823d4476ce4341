#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot call. Each kind of argument
// the transport passes goes through one fixed-signature wrapper here, as do the few macros and
// union members Swift does not import; nothing in this header adds behaviour.

// The type-checking macros only matter to C callers; the wrappers below are already typed.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// libcurl's write and header callback: (bytes, 1, count, userdata) -> bytes taken.
typedef size_t (*ccurl_data_fn)(char *, size_t, size_t, void *);

// MARK: - curl_easy_setopt

/// Options whose value is a `long` (flags, sizes, timeouts in seconds).
static inline CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

/// Options whose value is a `curl_off_t` (the *_LARGE sizes).
static inline CURLcode ccurl_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// Options whose value is a string; libcurl copies it (except CURLOPT_POSTFIELDS, not used).
static inline CURLcode ccurl_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

/// Options whose value is a pointer: callback data, the error buffer and the header list, which
/// libcurl keeps and uses until the handle is cleaned up, and CURLOPT_COPYPOSTFIELDS, which it copies.
static inline CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode ccurl_setopt_data_function(CURL *easy, CURLoption option, ccurl_data_fn fn) {
    return curl_easy_setopt(easy, option, fn);
}

// MARK: - curl_easy_getinfo (variadic too)

/// Infos whose value is a `curl_off_t` (byte counts).
static inline CURLcode ccurl_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

// MARK: - Constants Swift does not import (function-like or composite macros)

/// curl_global_init's usual flags: SSL and, on Windows, sockets.
static inline CURLcode ccurl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// The size libcurl requires of a CURLOPT_ERRORBUFFER buffer.
static inline size_t ccurl_error_size(void) { return CURL_ERROR_SIZE; }

/// The result code of a CURLMSG_DONE message (a member of an anonymous union).
static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
