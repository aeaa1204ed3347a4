/// The themes shipped in `themes/`, compiled in so the binary works from anywhere.
///
/// Generated from `themes/*.yaml`; a test checks the two stay identical.
package enum BuiltinThemes {
    /// Theme file text by theme name.
    static let source: [String: String] = [
        "default": #"""
# explorer theme: default (dark terminals)
name: default
roles:
  text: { fg: default, bg: default }
  dim: { fg: 245 }
  border: { fg: 240 }
  focusBorder: { fg: cyan, attrs: [bold] }
  title: { fg: white, attrs: [bold] }
  selection: { fg: black, bg: cyan }
  selectionInactive: { fg: default, bg: 238 }
  tabActive: { fg: cyan, attrs: [bold, underline] }
  tabInactive: { fg: 245 }
  statusBar: { fg: 252, bg: 236 }
  statusKey: { fg: cyan, bg: 236, attrs: [bold] }
  message: { fg: white, bg: 236 }
  error: { fg: bright-red, attrs: [bold] }
  warning: { fg: yellow }
  success: { fg: green }
  methodGet: { fg: green, attrs: [bold] }
  methodPost: { fg: yellow, attrs: [bold] }
  methodPut: { fg: blue, attrs: [bold] }
  methodPatch: { fg: magenta, attrs: [bold] }
  methodDelete: { fg: red, attrs: [bold] }
  methodOther: { fg: cyan, attrs: [bold] }
  status1xx: { fg: 245 }
  status2xx: { fg: green, attrs: [bold] }
  status3xx: { fg: cyan, attrs: [bold] }
  status4xx: { fg: "#ffaf00", attrs: [bold] }
  status5xx: { fg: bright-red, attrs: [bold] }
  jsonKey: { fg: "#5fafff" }
  jsonString: { fg: "#87d787" }
  jsonNumber: { fg: "#ffaf5f" }
  jsonBool: { fg: "#d787ff" }
  jsonNull: { fg: 245, attrs: [italic] }
  jsonPunctuation: { fg: 250 }
  headerName: { fg: "#5fafff" }
  headerValue: { fg: default }
  searchMatch: { fg: black, bg: yellow }
  searchCurrent: { fg: black, bg: "#ff8700", attrs: [bold] }
  escaped: { fg: magenta, attrs: [reverse] }
  protectedBadge: { fg: white, bg: red, attrs: [bold] }
  environment: { fg: cyan }
  input: { fg: default, bg: 237 }
  overlay: { fg: default, bg: 235 }
  spinner: { fg: cyan }
"""#,
        "light": #"""
# explorer theme: light (light terminal backgrounds)
name: light
base: default
roles:
  text: { fg: default, bg: default }
  dim: { fg: 244 }
  border: { fg: 250 }
  focusBorder: { fg: blue, attrs: [bold] }
  title: { fg: black, attrs: [bold] }
  selection: { fg: white, bg: blue }
  selectionInactive: { fg: default, bg: 254 }
  tabActive: { fg: blue, attrs: [bold, underline] }
  tabInactive: { fg: 244 }
  statusBar: { fg: 236, bg: 253 }
  statusKey: { fg: blue, bg: 253, attrs: [bold] }
  message: { fg: black, bg: 253 }
  error: { fg: "#d70000", attrs: [bold] }
  warning: { fg: "#af5f00" }
  success: { fg: "#008700" }
  methodGet: { fg: "#008700", attrs: [bold] }
  methodPost: { fg: "#af5f00", attrs: [bold] }
  methodPut: { fg: "#0000d7", attrs: [bold] }
  methodPatch: { fg: "#8700af", attrs: [bold] }
  methodDelete: { fg: "#d70000", attrs: [bold] }
  methodOther: { fg: "#005f87", attrs: [bold] }
  status1xx: { fg: 244 }
  status2xx: { fg: "#008700", attrs: [bold] }
  status3xx: { fg: "#005f87", attrs: [bold] }
  status4xx: { fg: "#af5f00", attrs: [bold] }
  status5xx: { fg: "#d70000", attrs: [bold] }
  jsonKey: { fg: "#005faf" }
  jsonString: { fg: "#008700" }
  jsonNumber: { fg: "#af5f00" }
  jsonBool: { fg: "#8700af" }
  jsonNull: { fg: 244, attrs: [italic] }
  jsonPunctuation: { fg: 240 }
  headerName: { fg: "#005faf" }
  headerValue: { fg: default }
  searchMatch: { fg: black, bg: "#ffff87" }
  searchCurrent: { fg: black, bg: "#ffaf00", attrs: [bold] }
  escaped: { fg: "#8700af", attrs: [reverse] }
  protectedBadge: { fg: white, bg: "#d70000", attrs: [bold] }
  environment: { fg: "#005f87" }
  input: { fg: default, bg: 254 }
  overlay: { fg: default, bg: 255 }
  spinner: { fg: blue }
"""#,
        "high-contrast": #"""
# explorer theme: high-contrast (pure colours, bold borders, no greys)
name: high-contrast
base: default
roles:
  text: { fg: bright-white, bg: black }
  dim: { fg: white }
  border: { fg: white }
  focusBorder: { fg: bright-yellow, attrs: [bold] }
  title: { fg: bright-white, attrs: [bold, underline] }
  selection: { fg: black, bg: bright-yellow, attrs: [bold] }
  selectionInactive: { fg: black, bg: white }
  tabActive: { fg: black, bg: bright-yellow, attrs: [bold] }
  tabInactive: { fg: bright-white }
  statusBar: { fg: black, bg: bright-white }
  statusKey: { fg: black, bg: bright-white, attrs: [bold, underline] }
  message: { fg: black, bg: bright-white, attrs: [bold] }
  error: { fg: bright-white, bg: red, attrs: [bold] }
  warning: { fg: black, bg: bright-yellow }
  success: { fg: bright-green, attrs: [bold] }
  methodGet: { fg: bright-green, attrs: [bold] }
  methodPost: { fg: bright-yellow, attrs: [bold] }
  methodPut: { fg: bright-cyan, attrs: [bold] }
  methodPatch: { fg: bright-magenta, attrs: [bold] }
  methodDelete: { fg: bright-red, attrs: [bold] }
  methodOther: { fg: bright-white, attrs: [bold] }
  status1xx: { fg: bright-white }
  status2xx: { fg: bright-green, attrs: [bold] }
  status3xx: { fg: bright-cyan, attrs: [bold] }
  status4xx: { fg: bright-yellow, attrs: [bold] }
  status5xx: { fg: bright-white, bg: red, attrs: [bold] }
  jsonKey: { fg: bright-cyan, attrs: [bold] }
  jsonString: { fg: bright-green }
  jsonNumber: { fg: bright-yellow }
  jsonBool: { fg: bright-magenta }
  jsonNull: { fg: bright-magenta, attrs: [italic] }
  jsonPunctuation: { fg: bright-white }
  headerName: { fg: bright-cyan, attrs: [bold] }
  headerValue: { fg: bright-white }
  searchMatch: { fg: black, bg: bright-cyan }
  searchCurrent: { fg: black, bg: bright-yellow, attrs: [bold, underline] }
  escaped: { fg: black, bg: bright-magenta, attrs: [bold] }
  protectedBadge: { fg: bright-white, bg: red, attrs: [bold, underline] }
  environment: { fg: bright-cyan, attrs: [bold] }
  input: { fg: bright-white, bg: blue }
  overlay: { fg: bright-white, bg: black }
  spinner: { fg: bright-yellow, attrs: [bold] }
"""#,
        "monochrome": #"""
# explorer theme: monochrome (attributes only; also what NO_COLOR draws with)
name: monochrome
roles:
  text: {}
  dim: { attrs: [dim] }
  border: { attrs: [dim] }
  focusBorder: { attrs: [bold] }
  title: { attrs: [bold] }
  selection: { attrs: [reverse] }
  selectionInactive: { attrs: [underline] }
  tabActive: { attrs: [reverse, bold] }
  tabInactive: {}
  statusBar: { attrs: [reverse] }
  statusKey: { attrs: [reverse, bold] }
  message: { attrs: [reverse] }
  error: { attrs: [bold, underline] }
  warning: { attrs: [bold] }
  success: { attrs: [bold] }
  methodGet: { attrs: [bold] }
  methodPost: { attrs: [bold] }
  methodPut: { attrs: [bold] }
  methodPatch: { attrs: [bold] }
  methodDelete: { attrs: [bold, underline] }
  methodOther: { attrs: [bold] }
  status1xx: {}
  status2xx: { attrs: [bold] }
  status3xx: { attrs: [bold] }
  status4xx: { attrs: [bold, underline] }
  status5xx: { attrs: [bold, reverse] }
  jsonKey: { attrs: [bold] }
  jsonString: {}
  jsonNumber: {}
  jsonBool: { attrs: [italic] }
  jsonNull: { attrs: [dim] }
  jsonPunctuation: { attrs: [dim] }
  headerName: { attrs: [bold] }
  headerValue: {}
  searchMatch: { attrs: [reverse] }
  searchCurrent: { attrs: [reverse, bold, underline] }
  escaped: { attrs: [reverse] }
  protectedBadge: { attrs: [reverse, bold] }
  environment: { attrs: [bold] }
  input: { attrs: [underline] }
  overlay: {}
  spinner: { attrs: [bold] }
"""#,
    ]

    /// The names of the built-in themes.
    static let names = ["default", "light", "high-contrast", "monochrome"]
}
