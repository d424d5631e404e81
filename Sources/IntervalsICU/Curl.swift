import CCurl

/// libcurl's functions (`curl.easy_perform` is `curl_easy_perform`), opened with dlopen
/// the first time a command talks to the service (CCurl/shim.h says why it is not
/// linked); nil where libcurl4 is not installed. `global_init` once, here: it is not
/// thread safe, and this runs once.
/// `nonisolated(unsafe)`: the variadic functions are opaque pointers to Swift, not Sendable
/// values, though nothing changes them once the library is open.
nonisolated(unsafe) let curlLibrary: workout_curl? = {
    var api = workout_curl()
    guard workout_curl_open(&api) == 0 else { return nil }
    _ = api.global_init!(Int(CURL_GLOBAL_DEFAULT))
    return api
}()
