import Terminal

/// The roles the explorer paints with beyond the terminal layer's own: HTTP methods and
/// statuses, JSON, headers and environments.
extension Role {
    /// HTTP method GET.
    package static let methodGet = Role(rawValue: "methodGet")
    /// HTTP method POST.
    package static let methodPost = Role(rawValue: "methodPost")
    /// HTTP method PUT.
    static let methodPut = Role(rawValue: "methodPut")
    /// HTTP method PATCH.
    static let methodPatch = Role(rawValue: "methodPatch")
    /// HTTP method DELETE.
    static let methodDelete = Role(rawValue: "methodDelete")
    /// Any other HTTP method (HEAD, OPTIONS ...).
    static let methodOther = Role(rawValue: "methodOther")
    /// A 1xx status.
    static let status1xx = Role(rawValue: "status1xx")
    /// A 2xx status.
    package static let status2xx = Role(rawValue: "status2xx")
    /// A 3xx status.
    static let status3xx = Role(rawValue: "status3xx")
    /// A 4xx status.
    static let status4xx = Role(rawValue: "status4xx")
    /// A 5xx status.
    static let status5xx = Role(rawValue: "status5xx")
    /// A JSON object key.
    static let jsonKey = Role(rawValue: "jsonKey")
    /// A JSON string value.
    static let jsonString = Role(rawValue: "jsonString")
    /// A JSON number.
    static let jsonNumber = Role(rawValue: "jsonNumber")
    /// A JSON `true`/`false`.
    static let jsonBool = Role(rawValue: "jsonBool")
    /// A JSON `null`.
    static let jsonNull = Role(rawValue: "jsonNull")
    /// JSON punctuation: braces, brackets, commas, colons.
    static let jsonPunctuation = Role(rawValue: "jsonPunctuation")
    /// A header name.
    static let headerName = Role(rawValue: "headerName")
    /// A header value.
    static let headerValue = Role(rawValue: "headerValue")
    /// The badge of a protected (production) environment.
    static let protectedBadge = Role(rawValue: "protectedBadge")
    /// An environment name.
    static let environment = Role(rawValue: "environment")

    /// Every role a theme file may style: the widgets' and the explorer's.
    static let known: [Role] =
        widgetRoles + [
            .methodGet,
            .methodPost,
            .methodPut,
            .methodPatch,
            .methodDelete,
            .methodOther,
            .status1xx,
            .status2xx,
            .status3xx,
            .status4xx,
            .status5xx,
            .jsonKey,
            .jsonString,
            .jsonNumber,
            .jsonBool,
            .jsonNull,
            .jsonPunctuation,
            .headerName,
            .headerValue,
            .protectedBadge,
            .environment,
        ]
}
