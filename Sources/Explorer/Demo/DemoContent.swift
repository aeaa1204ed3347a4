import Foundation

/// The fixed bodies the demo serves to show how the explorer handles content types:
/// binary, Latin-1 text, Unicode, XML, an HTML error page and hostile escape sequences.
enum DemoContent {
    /// A 32×32 PNG (a gradient with a white dot).
    static let png = Data(
        base64Encoded: """
            iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAFpElEQVR42pXUERTuOhpG4WIwGIwGg8FosVgsVn8sFqvFwoZi
            sVoMBqPBYDDa6VpXBu6sOefzdz+UdF2H6JAdqkN3mA7b4Tp8R98xdIwdU8fc8etYOtaOrWPvODrOjqvj7ng6QkfsSB25o3TU
            jtbxdnSdQAikQAm0wAiswAm8oBcMglEwCWbBT7AIVsEm2AWH4BRcglvwCIIgCpIgC4qgCprgFR8gERIpURItMRIrcRIv6SWD
            ZJRMklnykyySVbJJdskhOSWX5JY8kiCJkiTJkiKpkiZ55QcohEIqlEIrjMIqnMIresWgGBWTYlb8FItiVWyKXXEoTsWluBWP
            IiiiIimyoiiqoile9QEaoZEapdEao7Eap/GaXjNoRs2kmTU/zaJZNZtm1xyaU3Npbs2jCZqoSZqsKZqqaZpXf4BBGKRBGbTB
            GKzBGbyhNwyG0TAZZsPPsBhWw2bYDYfhNFyG2/AYgiEakiEbiqEamuE1H2ARFmlRFm0xFmtxFm/pLYNltEyW2fKzLJbVsll2
            y2E5LZfltjyWYImWZMmWYqmWZnntBziEQzqUQzuMwzqcwzt6x+AYHZNjdvwci2N1bI7dcThOx+W4HY8jOKIjObKjOKqjOV73
            AR7hkR7l0R7jsR7n8Z7eM3hGz+SZPT/P4lk9m2f3HJ7Tc3luz+MJnuhJnuwpnuppntd/QI/okT2qR/eYHtvjenxP3zP0jD1T
            z/tvd/ZcPXfP0xN6Yk/qyT2lp/a0b9V/wIAYkANqQA+YATvgBvxAPzAM/57+77sHnoEwEAfSQB4oA3WgfdvhA0bEiBxRI3rE
            jNgRN+JH+vH/1/+5ZySMxJE0kkfKSB1p33z8gAkxISfUhJ4wE3bCTfiJfvpjYCJMxIk0kSfKRJ1o33z6gBkxI2fUjJ4xM3bG
            zfj5T+v/XJiJM2kmz5SZOtO+wvwBP8QP+UP90D/MD/vD/fC/vwR+xB/pR/5RftQf7Sv8PmBBLMgFtaAXzIJdcAt++UtgIS6k
            hbxQFupC+wrLB6yIFbmiVvSKWbErbsWvfwmsxJW0klfKSl1pX2H9gA2xITfUht4wG3bDbfjtL4GNuJE28kbZqBvtK2wfsCN2
            5I7a0Ttmx+64Hb//JbATd9JO3ik7dad9hf0DDsSBPFAH+sAc2AN34I+/BA7iQTrIB+WgHrSvcHzAiTiRJ+pEn5gTe+JO/El/
            /vE7OAkn8SSd5JNyUk/aNz8/4EJcyAt1oS/Mhb1wF/6iv/4YuAgX8SJd5ItyUS/aN78+4EbcyBt1o2/Mjb1xN/6mvxnuP/iL
            bp6bcBNv0k2+KTf1pn3b+wMexIN8UA/6wTzYB/fgH/qH4WF8mJ7/8Zs+XA/3w/MQHuJDesgP5aE+tG/1fEBABGRABXTABGzA
            BXygDwyBMTAF5sAvsATWwBbYA0fgDFyBO/AEQiAGUiAHSqAGWuANHxARERlRER0xERtxER/pI0NkjEyROfKLLJE1skX2yBE5
            I1fkjjyREImRFMmREqmRFnnjByREQiZUQidMwiZcwif6xJAYE1NiTvwSS2JNbIk9cSTOxJW4E08iJGIiJXKiJGqiJd70ARmR
            kRmV0RmTsRmX8Zk+M2TGzJSZM7/MklkzW2bPHJkzc2XuzJMJmZhJmZwpmZppmTd/QEEUZEEVdMEUbMEVfKEvDIWxMBXmwq+w
            FNbCVtgLR+EsXIW78BRCIRZSIRdKoRZa4S0fUBEVWVEVXTEVW3EVX+krQ2WsTJW58qsslbWyVfbKUTkrV+WuPJVQiZVUyZVS
            qZVWeesHNERDNlRDN0zDNlzDN/rG0BgbU2Nu/BpLY21sjb1xNM7G1bgbTyM0YiM1cqM0aqM13vYBL+JFvqgX/WJe7It78S/9
            y/Ayvkwv88vvZXlZX7aX/eV4OV+ul/vleQkv8SW95JfyUl/a+70e/gP8EXsVW9vfzAAAAABJRU5ErkJggg==
            """.replacingOccurrences(of: "\n", with: ""))!

    /// `text/plain; charset=iso-8859-1`: these characters are single bytes in Latin-1 and
    /// invalid as UTF-8, so a client that ignores the charset shows garbage.
    static let latin1Text = """
        Café crème, naïve façade, Straße, smørrebrød, ¿Qué tal?, 25 °C, ½ price, © 2026 Démo.
        This body is encoded as ISO-8859-1; decode it with the charset from Content-Type.

        """

    static var unicodeJSON: [String: Any] {
        [
            "greeting": "Hello, 世界! 👋🏽",
            "languages": [
                ["code": "ja", "text": "こんにちは、世界"],
                ["code": "zh", "text": "你好，世界"],
                ["code": "ko", "text": "안녕하세요 세계"],
                ["code": "ar", "text": "مرحبا بالعالم"],
                ["code": "he", "text": "שלום עולם"],
                ["code": "hi", "text": "नमस्ते दुनिया"],
                ["code": "el", "text": "Γειά σου Κόσμε"],
            ],
            "emoji": ["🚀", "👩‍💻", "🇯🇵", "❤️", "🧪"],
            "combining": "e\u{301}le\u{300}ve, n\u{303}",
            "mixedDirection": "The word שלום means peace",
        ]
    }

    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <catalog environment="ENVIRONMENT">\
        <book id="bk101"><author>Gambardella, Matthew</author><title>XML Developer's Guide</title>\
        <price currency="EUR">44.95</price></book>\
        <book id="bk102"><author>Ralls, Kim</author><title>Midnight Rain</title>\
        <price currency="EUR">5.95</price></book>\
        </catalog>

        """

    static func serverErrorPage(requestID: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>500 Internal Server Error</title>
        <style>body{font-family:sans-serif;margin:4em}code{background:#eee}</style></head>
        <body>
        <h1>Internal Server Error</h1>
        <p>The server hit an unexpected condition and could not complete your request.</p>
        <p>Request ID: <code>\(requestID)</code>. If this keeps happening, contact support with this ID.</p>
        <hr><address>explorer demo API</address>
        </body>
        </html>

        """
    }

    /// A body that tries to retitle and clear the terminal; the explorer must show it inert.
    static let escapeText =
        "Before\u{1B}]0;owned\u{07} title\n\u{1B}[2J\u{1B}[31mred?\u{1B}[0m\nbell:\u{07} "
        + "backspace:\u{08} nul:\u{00} end\n"
}
