import CCurl

/// Sends an `HTTPRequest` through libcurl's easy interface and waits for the answer: one
/// transfer at a time, which is all a command needs (a list, an upload, a rating). The
/// client is libcurl's, not workout's own: TLS, proxies (`https_proxy`), redirects and
/// HTTP/2 are its (docs/decisions/0020-libcurl-at-run-time.md).
public enum HTTPClient {
    /// The answer, or why none came. Any status is an answer: what it means is the caller's.
    public static func send(_ request: HTTPRequest) throws(HTTPFailure) -> HTTPAnswer {
        guard let api = curlLibrary, let handle = api.easy_init!() else { throw .noLibrary }
        defer { api.easy_cleanup!(handle) }
        // The shim's typed setopt calls take the table by address.
        var functions = api
        let received = Received()
        let context = Unmanaged.passRetained(received)
        defer { context.release() }
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { if headers != nil { api.slist_free_all!(headers) } }
        var form: OpaquePointer?
        defer { if form != nil { api.mime_free!(form) } }

        func text(_ option: CURLoption, _ value: String) {
            _ = value.withCString { workout_curl_setopt_pointer(&functions, handle, option, $0) }
        }
        func number(_ option: CURLoption, _ value: Int) {
            _ = workout_curl_setopt_long(&functions, handle, option, value)
        }
        text(CURLOPT_URL, request.url)
        text(CURLOPT_USERNAME, request.user)
        text(CURLOPT_PASSWORD, request.password)
        number(CURLOPT_HTTPAUTH, 1) // CURLAUTH_BASIC
        number(CURLOPT_NOSIGNAL, 1)
        number(CURLOPT_CONNECTTIMEOUT_MS, Int(request.timeout * 1000))
        number(CURLOPT_TIMEOUT_MS, Int(request.timeout * 1000))
        number(CURLOPT_FOLLOWLOCATION, 1)
        number(CURLOPT_MAXREDIRS, 5)
        // Only the web's protocols, also after a redirect.
        text(CURLOPT_PROTOCOLS_STR, "http,https")
        text(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        text(CURLOPT_USERAGENT, "workout")
        _ = workout_curl_setopt_writer(&functions, handle) { data, size, count, context in
            guard let data, let context else { return 0 }
            let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
            let total = size * count
            guard received.bytes.count + total <= Received.largest else { return 0 }
            received.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: total))
            return total
        }
        _ = workout_curl_setopt_pointer(&functions, handle, CURLOPT_WRITEDATA, context.toOpaque())

        headers = api.slist_append!(headers, "Accept: application/json")
        switch request.body {
        case .none:
            if request.method != .get { number(CURLOPT_POSTFIELDSIZE, 0); text(CURLOPT_COPYPOSTFIELDS, "") }
        case .json(let bytes):
            headers = api.slist_append!(headers, "Content-Type: application/json")
            number(CURLOPT_POSTFIELDSIZE, bytes.count)
            _ = bytes.withUnsafeBufferPointer { workout_curl_setopt_pointer(&functions, handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        case .form(let parts):
            form = api.mime_init!(handle)
            for part in parts {
                let field = api.mime_addpart!(form)
                _ = api.mime_name!(field, part.name)
                _ = part.bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                        api.mime_data!(field, $0, buffer.count)
                    }
                }
                if let fileName = part.fileName { _ = api.mime_filename!(field, fileName) }
                if let type = part.type { _ = api.mime_type!(field, type) }
            }
            _ = workout_curl_setopt_pointer(&functions, handle, CURLOPT_MIMEPOST, UnsafeRawPointer(form))
        }
        // After the body: a body makes a POST, which a PUT then renames.
        text(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        _ = workout_curl_setopt_pointer(&functions, handle, CURLOPT_HTTPHEADER, headers)

        let code = api.easy_perform!(handle)
        switch code {
        case CURLE_OK: break
        case CURLE_OPERATION_TIMEDOUT: throw .timedOut(request.timeout)
        default: throw .unreachable(api.easy_strerror!(code).map { String(cString: $0) } ?? "error \(code.rawValue)")
        }
        var status = 0
        _ = workout_curl_status(&functions, handle, &status)
        return HTTPAnswer(status: status, body: received.bytes)
    }
}

/// The answer's bytes as libcurl hands them over, bounded: no answer of this service is
/// near 16 MiB, and a larger one ends the transfer rather than memory.
private final class Received {
    static let largest = 16 << 20
    var bytes: [UInt8] = []
}
