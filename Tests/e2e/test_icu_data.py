"""scripts/icu-data.swift: the ICU data `scripts/install` links instead of the toolchain's 34 MB.

A small program that uses what explorer asks of ICU (dates in a fixed locale and in the
current one, time zones and their names, cookie-date parsing, case-insensitive and localized
comparison, number formatting, IDNA host names, the charsets TextDecoding names) is linked
statically twice, with the toolchain's data and with the trimmed data, and must print the same.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "icu-data.swift"

PROBE = r"""
import Foundation
let date = Date(timeIntervalSince1970: 1_700_000_000)
print(date.formatted(.iso8601))
print(date.formatted(date: .abbreviated, time: .shortened), date.formatted(date: .omitted, time: .shortened))
let http = DateFormatter()
http.locale = Locale(identifier: "en_US_POSIX")
http.timeZone = TimeZone(identifier: "America/New_York")
http.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
print(http.string(from: date))
let cookie = DateFormatter()
cookie.locale = Locale(identifier: "en_US_POSIX")
cookie.timeZone = TimeZone(identifier: "GMT")
cookie.dateFormat = "EEE, dd-MMM-yyyy HH:mm:ss zzz"
print(cookie.date(from: "Wed, 21-Oct-2015 07:28:00 GMT") as Any)
print(ISO8601DateFormatter().date(from: "2024-02-29T12:00:00+05:30") as Any)
print(TimeZone(identifier: "Europe/Paris")!.secondsFromGMT(for: date), TimeZone.knownTimeZoneIdentifiers.count)
print(TimeZone(identifier: "Asia/Kolkata")!.localizedName(for: .standard, locale: Locale(identifier: "en_US")) ?? "-")
print(Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "Australia/Lord_Howe")!, from: date).hour ?? -1)
print("Straße".compare("STRASSE", options: .caseInsensitive).rawValue, "é".localizedCompare("f").rawValue,
      "a".localizedStandardCompare("B").rawValue, "hello wörld".uppercased(), "ǅ".lowercased())
print(1234567.891.formatted(), (0.25).formatted(.percent), 42.formatted(.currency(code: "EUR")),
      ByteCountFormatter.string(fromByteCount: 123456789, countStyle: .file))
print(URL(string: "http://bücher.example/x")?.host ?? "nil", "a\u{301}" == "\u{e1}", "Ⅻ".decomposedStringWithCompatibilityMapping)
print(try! NSRegularExpression(pattern: "\\p{L}+").numberOfMatches(in: "añb c", range: NSRange(location: 0, length: 5)))
let bytes: [(String.Encoding, [UInt8])] = [
    (.shiftJIS, [0x82, 0xA0, 0x82, 0xA2]), (.japaneseEUC, [0xA4, 0xA2]), (.isoLatin2, [0xB1, 0xE6]),
    (.windowsCP1250, [0x8A, 0x9A]), (.windowsCP1251, [0xC0, 0xE9]), (.windowsCP1252, [0x80]), (.isoLatin1, [0xE9]),
]
print(bytes.map { String(data: Data($0.1), encoding: $0.0) ?? "nil" })
"""


def toolchain_icu_archive() -> Path | None:
    if shutil.which("swiftc") is None or shutil.which("clang") is None:
        return None
    info = json.loads(subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True, check=True).stdout)
    resources = Path(info["paths"]["runtimeResourcePath"])
    archive = resources.parent / "swift_static" / "linux" / "lib_FoundationICU.a"
    return archive if archive.is_file() else None


def test_the_trimmed_icu_data_answers_as_the_toolchains_and_is_a_sixth_of_it(tmp_path):
    archive = toolchain_icu_archive()
    if archive is None:
        pytest.skip("no Swift toolchain with static Foundation for Linux here")
    made = subprocess.run(["swift", TOOL, archive, tmp_path / "icu"], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("ICU data: "), made.stdout
    source = tmp_path / "icu" / "icudata.S"
    symbol = next(line.split()[1] for line in source.read_text().splitlines() if line.startswith(".globl "))
    assert symbol.startswith("explorer_icudt") and symbol.endswith("_dat"), symbol
    subprocess.run(["clang", "-c", "-o", tmp_path / "icudata.o", source], check=True, timeout=120)

    (tmp_path / "main.swift").write_text(PROBE)
    builds = {
        "full": [],
        "trimmed": ["-Xlinker", str(tmp_path / "icudata.o"), "-Xlinker", "--defsym",
                    "-Xlinker", f"{symbol.removeprefix('explorer_')}={symbol}"],
    }
    outputs, sizes = {}, {}
    for name, flags in builds.items():
        binary = tmp_path / name
        built = subprocess.run(["swiftc", "-static-stdlib", tmp_path / "main.swift", "-o", binary, *flags],
                               capture_output=True, text=True, timeout=600)
        assert built.returncode == 0, built.stderr
        ran = subprocess.run([binary], capture_output=True, text=True, timeout=60, env={"LANG": "C.UTF-8", "TZ": "UTC"})
        assert ran.returncode == 0, ran.stderr
        outputs[name], sizes[name] = ran.stdout, binary.stat().st_size
    assert outputs["trimmed"] == outputs["full"]
    assert "xn--bcher-kva.example" in outputs["full"] and "あい" in outputs["full"], outputs["full"]
    data = (tmp_path / "icu").glob("icudt*l.dat")
    assert sum(path.stat().st_size for path in data) < 8_000_000
    assert sizes["full"] - sizes["trimmed"] > 25_000_000, sizes
