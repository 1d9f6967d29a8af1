import Foundation

/// An estimate of how hard a passphrase is to guess, in bits, with what made it weak: the honest
/// kind of estimate a tool can make without a dictionary of a million words (docs/VAULT_FORMAT.md,
/// "Passphrase strength").
///
/// The passphrase is read left to right, each time taking the longest of these patterns that
/// starts there, each costing the bits a guesser who tries such patterns first would spend:
/// one of the most common passwords or words of passwords (case and the usual digit-for-letter
/// swaps ignored: `P@ssw0rd` is `password`), a run of one character (`aaaa`), a sequence
/// (`abcd`, `4321`), a run along a keyboard row (`qwerty`, `asdf`), a year (1900-2099). Any
/// other character costs log2 of the alphabet the passphrase draws on (26 lowercase letters, 26
/// uppercase, 10 digits, 33 ASCII symbols and space, 100 for anything else, for each kind
/// present). A passphrase that is one part repeated costs that part and the number of repeats.
/// Random characters are thus counted at full value; words not in the list are counted as
/// random letters, so the estimate of a phrase of uncommon words is generous, never low.
public struct PassphraseStrength: Sendable, Hashable, CustomStringConvertible {
    /// The estimated bits: log2 of the guesses an attacker trying likely passphrases first needs.
    public let bits: Double
    /// What made it guessable, for the owner: "1 character", "a common password".
    public let findings: [String]

    /// Below this, the tools ask before using a passphrase: 2^40 guesses at 1,000 a second (the
    /// pace of a few graphics cards against Argon2id at 256 MiB) take about 17 years on average.
    public static let minimumBits = 40.0

    /// The guesses per second the estimate of time assumes.
    public static let guessesPerSecond = 1_000.0

    public var isWeak: Bool { bits < Self.minimumBits }

    /// "about 5 bits (1 character, lowercase letters only): found in under a second by a
    /// machine trying 1,000 passphrases a second against a stolen key file"
    public var description: String {
        let reasons = findings.isEmpty ? "" : " (\(findings.joined(separator: ", ")))"
        let whole = Int(bits.rounded())
        return "about \(whole) bit\(whole == 1 ? "" : "s")\(reasons): found in \(Self.time(bits: bits)) on average "
            + "by a machine trying 1,000 passphrases a second against a stolen key file"
    }

    /// How long half of 2^bits guesses take at ``guessesPerSecond``.
    static func time(bits: Double) -> String {
        let seconds = pow(2, bits) / 2 / guessesPerSecond
        let units: [(size: Double, one: String, many: String)] = [
            (365.25 * 86_400, "year", "years"), (86_400, "day", "days"), (3_600, "hour", "hours"),
            (60, "minute", "minutes"), (1, "second", "seconds"),
        ]
        guard seconds >= 1 else { return "under a second" }
        guard seconds < 365.25 * 86_400 * 1_000_000 else { return "more than a million years" }
        let unit = units.first { seconds >= $0.size } ?? units[units.count - 1]
        let count = Int((seconds / unit.size).rounded())
        return "about \(count) \(count == 1 ? unit.one : unit.many)"
    }

    /// Estimates the strength of `passphrase` (its UTF-8 bytes). Works on copies it wipes: no
    /// `String` of the secret is made.
    public static func estimate(_ passphrase: UnsafeRawBufferPointer) -> PassphraseStrength {
        var bytes = Array(passphrase.bindMemory(to: UInt8.self))
        defer { wipe(&bytes) }
        var findings: [String] = []
        let characters = characterCount(bytes)
        if characters < 12 { findings.append("\(characters) character\(characters == 1 ? "" : "s")") }
        var bits: Double
        if let period = period(of: bytes.map(lowercase)), period < bytes.count {
            // One part repeated: "abcabc", "passwordpassword".
            var part = Array(bytes[0..<period])
            defer { wipe(&part) }
            let reading = read(part, alphabet: alphabetSize(bytes))
            bits = reading.bits + log2(Double(bytes.count / period))
            findings += reading.findings + ["one part repeated"]
        } else {
            let reading = read(bytes, alphabet: alphabetSize(bytes))
            bits = reading.bits
            findings += reading.findings
        }
        if let alphabet = alphabetFinding(bytes) { findings.append(alphabet) }
        return PassphraseStrength(bits: bits, findings: findings)
    }

    /// The greedy left-to-right reading of the patterns above.
    static func read(_ bytes: [UInt8], alphabet: Int) -> (bits: Double, findings: [String]) {
        var lowered = bytes.map(lowercase)
        var normalized = lowered.map(undoSwaps)
        defer {
            wipe(&lowered)
            wipe(&normalized)
        }
        let perCharacter = log2(Double(alphabet))
        var bits = 0.0
        var findings: [String] = []
        var index = 0
        while index < bytes.count {
            var best: (length: Int, bits: Double, finding: String)?
            func consider(_ length: Int, _ cost: Double, _ finding: String) {
                guard length > 1, cost < perCharacter * Double(length) else { return }
                if best == nil || length > best!.length { best = (length, cost, finding) }
            }
            for (rank, word) in commonPasswords.enumerated() {
                let normalizedWord = word.map(undoSwaps)
                guard normalized[index...].starts(with: normalizedWord) else { continue }
                // A capital or a swapped character costs a guesser about one bit more.
                let altered = bytes[index..<index + word.count].elementsEqual(word) ? 0.0 : 1.0
                consider(word.count, log2(Double(rank + 2)) + altered, "a common password or word")
            }
            let run = lowered[index...].prefix { $0 == lowered[index] }.count
            if run >= 3 { consider(run, perCharacter + log2(Double(run)), "a repeated character") }
            let sequence = sequenceLength(lowered, from: index)
            if sequence >= 3 {
                consider(sequence, log2(36) + 1 + log2(Double(sequence)), "a sequence like abcd or 1234")
            }
            let keyboard = keyboardRunLength(lowered, from: index)
            if keyboard >= 4 { consider(keyboard, 6 + log2(Double(keyboard)), "a run along the keyboard") }
            if index + 4 <= lowered.count, lowered[index..<index + 4].allSatisfy({ (0x30...0x39).contains($0) }) {
                let year = lowered[index..<index + 4].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                if (1900...2099).contains(year) { consider(4, log2(200), "a year") }
            }
            if let best {
                bits += best.bits
                if !findings.contains(best.finding) { findings.append(best.finding) }
                index += best.length
            } else {
                bits += perCharacter
                index += 1
            }
        }
        return (bits, findings)
    }

    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }

    // MARK: Patterns

    static func lowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// The usual swaps undone (0 o, 1 and ! i, 3 e, 4 and @ a, 5 and $ s, 7 t), for the list.
    static func undoSwaps(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0"): UInt8(ascii: "o")
        case UInt8(ascii: "1"), UInt8(ascii: "!"): UInt8(ascii: "i")
        case UInt8(ascii: "3"): UInt8(ascii: "e")
        case UInt8(ascii: "4"), UInt8(ascii: "@"): UInt8(ascii: "a")
        case UInt8(ascii: "5"), UInt8(ascii: "$"): UInt8(ascii: "s")
        case UInt8(ascii: "7"): UInt8(ascii: "t")
        default: byte
        }
    }

    /// The shortest part whose repeats make up the whole, if any.
    static func period(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for length in 1...(bytes.count / 2) where bytes.count % length == 0 {
            if (length..<bytes.count).allSatisfy({ bytes[$0] == bytes[$0 - length] }) { return length }
        }
        return nil
    }

    /// The length of the run of steps of +1 or -1 starting at `index` (letters or digits).
    static func sequenceLength(_ normalized: [UInt8], from index: Int) -> Int {
        guard index + 1 < normalized.count else { return 1 }
        let step = Int(normalized[index + 1]) - Int(normalized[index])
        guard step == 1 || step == -1, isAlphanumeric(normalized[index]) else { return 1 }
        var length = 2
        while index + length < normalized.count,
            Int(normalized[index + length]) - Int(normalized[index + length - 1]) == step,
            isAlphanumeric(normalized[index + length])
        {
            length += 1
        }
        return length
    }

    static let keyboardRows: [[UInt8]] = ["qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890"].map { Array($0.utf8) }

    /// The length of the run along one keyboard row (either way) starting at `index`.
    static func keyboardRunLength(_ normalized: [UInt8], from index: Int) -> Int {
        var best = 1
        for row in keyboardRows + keyboardRows.map({ Array($0.reversed()) }) {
            guard let start = row.firstIndex(of: normalized[index]) else { continue }
            var length = 1
            while index + length < normalized.count, start + length < row.count,
                normalized[index + length] == row[start + length]
            {
                length += 1
            }
            best = max(best, length)
        }
        return best
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
    }

    /// The characters (not bytes) of UTF-8 text.
    static func characterCount(_ bytes: [UInt8]) -> Int {
        bytes.filter { $0 & 0xC0 != 0x80 }.count
    }

    static func alphabetSize(_ bytes: [UInt8]) -> Int {
        var size = 0
        if bytes.contains(where: { (0x61...0x7A).contains($0) }) { size += 26 }
        if bytes.contains(where: { (0x41...0x5A).contains($0) }) { size += 26 }
        if bytes.contains(where: { (0x30...0x39).contains($0) }) { size += 10 }
        if bytes.contains(where: {
            (0x20...0x7E).contains($0) && !isAlphanumeric($0 | 0x20) && !(0x30...0x39).contains($0)
        }) {
            size += 33
        }
        if bytes.contains(where: { $0 >= 0x80 }) { size += 100 }
        return max(size, 2)
    }

    /// "lowercase letters only", "digits only": a passphrase drawn on one kind of character.
    static func alphabetFinding(_ bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ (0x61...0x7A).contains($0) }) { return "lowercase letters only" }
        if bytes.allSatisfy({ (0x41...0x5A).contains($0) }) { return "uppercase letters only" }
        if bytes.allSatisfy({ (0x30...0x39).contains($0) }) { return "digits only" }
        return nil
    }

    /// The most common passwords and the words most used in them, most common first (from the
    /// published lists of leaked passwords), in lowercase.
    static let commonPasswords: [[UInt8]] = [
        "password", "123456", "qwerty", "letmein", "iloveyou", "admin", "welcome", "monkey", "dragon",
        "football", "baseball", "master", "shadow", "sunshine", "princess", "trustno", "superman",
        "batman", "starwars", "whatever", "freedom", "secret", "hello", "charlie", "michael", "jordan",
        "hunter", "ranger", "buster", "soccer", "hockey", "killer", "george", "thomas", "summer",
        "winter", "spring", "autumn", "love", "flower", "computer", "internet", "cookie", "cheese",
        "pepper", "ginger", "tigger", "mustang", "access", "login", "passw", "pass", "test", "guest",
        "root", "user", "default", "changeme", "health", "vault", "healthvault", "secure", "private",
        "abc", "qaz", "zaq", "asdf", "zxcv", "god", "jesus", "angel", "money", "pokemon", "naruto",
        "minecraft", "fuck", "sex", "baby", "family", "happy", "lucky", "orange", "banana", "apple",
        "purple", "silver", "golden", "diamond", "matrix", "ninja", "pirate", "wizard", "phoenix",
    ].map { Array($0.utf8) }
}
