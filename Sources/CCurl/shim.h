// libcurl, the HTTP client of intervals.icu's calendar (Sources/IntervalsICU): the easy
// interface, one transfer at a time, with multipart uploads (curl_mime_*).
//
// libcurl is opened with dlopen when a command talks to the service, not linked: linked
// (as FoundationNetworking links it), it loads about 30 libraries (OpenSSL, nghttp2,
// Kerberos, LDAP...) into every command, 3 ms of start-up and 6 MiB of memory even for a
// run that never touches the network (docs/decisions/0020-libcurl-at-run-time.md). Its
// header gives the functions' types (`__typeof__`), so the calls are checked as if it
// were linked.
#ifndef WORKOUT_CURL_SHIM_H
#define WORKOUT_CURL_SHIM_H

#include <dlfcn.h>
#include <curl/curl.h>

/// The functions the client calls, without their `curl_` prefix.
#define WORKOUT_CURL_FUNCTIONS(X) \
    X(global_init) \
    X(easy_init) \
    X(easy_cleanup) \
    X(easy_setopt) \
    X(easy_getinfo) \
    X(easy_perform) \
    X(easy_strerror) \
    X(slist_append) \
    X(slist_free_all) \
    X(mime_init) \
    X(mime_free) \
    X(mime_addpart) \
    X(mime_name) \
    X(mime_filename) \
    X(mime_type) \
    X(mime_data)

/// libcurl's functions, each `curl_NAME` as the field `NAME`.
struct workout_curl {
#define WORKOUT_CURL_FIELD(name) __typeof__(&curl_##name) name;
    WORKOUT_CURL_FUNCTIONS(WORKOUT_CURL_FIELD)
#undef WORKOUT_CURL_FIELD
};

/// Opens libcurl.so.4 and fills `api`: 0, or -1 where the library or one of the
/// functions is missing. The library stays loaded for the process's life.
static inline int workout_curl_open(struct workout_curl *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    int missing = 0;
#define WORKOUT_CURL_LOOKUP(name) \
    api->name = (__typeof__(&curl_##name))dlsym(library, "curl_" #name); \
    if (api->name == NULL) missing = 1;
    WORKOUT_CURL_FUNCTIONS(WORKOUT_CURL_LOOKUP)
#undef WORKOUT_CURL_LOOKUP
    return missing ? -1 : 0;
}

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these
// call them with one argument of each type the client passes.

static inline CURLcode workout_curl_setopt_long(const struct workout_curl *api, CURL *curl, CURLoption option, long value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode workout_curl_setopt_pointer(const struct workout_curl *api, CURL *curl, CURLoption option, const void *value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode workout_curl_setopt_offset(const struct workout_curl *api, CURL *curl, CURLoption option, curl_off_t value) {
    return api->easy_setopt(curl, option, value);
}

/// The function that receives the answer's bytes: `(data, 1, count, context)` → count taken.
typedef size_t (*workout_curl_write)(char *data, size_t size, size_t count, void *context);

static inline CURLcode workout_curl_setopt_writer(const struct workout_curl *api, CURL *curl, workout_curl_write writer) {
    return api->easy_setopt(curl, CURLOPT_WRITEFUNCTION, writer);
}

static inline CURLcode workout_curl_status(const struct workout_curl *api, CURL *curl, long *status) {
    return api->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
}

#endif
