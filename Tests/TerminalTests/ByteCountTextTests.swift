import Testing

@testable import Terminal

@Suite struct ByteCountTextTests {
    /// What Foundation's `ByteCountFormatter` (`.binary`, English) gives for the same counts:
    /// the text the explorer showed before it stopped calling it.
    @Test(
        arguments: [
            (0, "Zero KB"), (1, "1 byte"), (2, "2 bytes"), (999, "999 bytes"), (1000, "1,000 bytes"),
            (1023, "1,023 bytes"), (1024, "1 KB"), (1025, "1 KB"), (1536, "2 KB"), (2560, "2 KB"),
            (3584, "4 KB"), (10_000, "10 KB"), (102_400, "100 KB"), (1_048_575, "1,024 KB"),
            (1_048_576, "1 MB"), (1_310_720, "1.2 MB"), (1_363_148, "1.3 MB"), (1_500_000, "1.4 MB"),
            (2_883_584, "2.8 MB"), (10_485_760, "10 MB"), (11_000_000, "10.5 MB"),
            (104_857_600, "100 MB"), (1_073_741_824, "1 GB"), (1_084_479_242, "1.01 GB"),
            (1_610_612_736, "1.5 GB"), (5_000_000_000, "4.66 GB"), (2_199_023_255_552, "2 TB"),
            (123_456_789_012_345, "112.28 TB"), (1_125_899_906_842_624, "1 PB"),
            (1_152_921_504_606_846_976, "1 EB"), (Int64.max, "8 EB"), (-5, "-5 bytes"), (-2048, "-2 KB"),
        ] as [(Int64, String)])
    func readsAsFoundationsFormatterDid(count: Int64, text: String) {
        #expect(ByteCountText.binary(count) == text)
    }
}
